package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/formats"
	"fencer/svcomp"
)

// stdinName is the file name of a program read from standard input ("-").
const stdinName = "<stdin>"

// fileError reports err about path as "path: message" (exit 2), with the
// operation and the path that os puts in its errors left out.
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &exitError{code: exitInput, msg: path + ": " + err.Error(), bare: true}
}

// readInput reads the program named by path: a file, or standard input for
// "-". It returns the name to use in messages. At most cs.MaxInputSize
// bytes are read, so a device or a pipe that never ends is an error, not a
// hang.
func readInput(path string) (string, []byte, error) {
	name, r := stdinName, io.Reader(os.Stdin)
	if path != "-" {
		name = path
		st, err := os.Stat(path)
		if err != nil {
			return "", nil, fileError(path, err)
		}
		if st.IsDir() {
			return "", nil, fileError(path, errors.New("is a directory"))
		}
		if st.Mode().IsRegular() && st.Size() > cs.MaxInputSize {
			return "", nil, fileError(path, fmt.Errorf("input too large: %d bytes (at most %d)", st.Size(), cs.MaxInputSize))
		}
		f, err := os.Open(path)
		if err != nil {
			return "", nil, fileError(path, err)
		}
		defer f.Close()
		r = f
	}
	src, err := io.ReadAll(io.LimitReader(r, cs.MaxInputSize+1))
	if err != nil {
		return "", nil, fileError(name, err)
	}
	if len(src) > cs.MaxInputSize {
		return "", nil, fileError(name, fmt.Errorf("input too large: more than %d bytes", cs.MaxInputSize))
	}
	return name, src, nil
}

// formatFlag chooses the input format of the commands that read a
// program; without it the file's extension decides (formats.ByExtension).
var formatFlag = &cli.StringFlag{Name: "format", Usage: "input format: " + formatList() + "; default: by the file's extension"}

// formatList says "cs (fencer's language), rmm (Memorax model) or ...".
func formatList() string {
	var out []string
	for _, f := range formats.All() {
		out = append(out, f.Name+" ("+f.Doc+")")
	}
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// formatFlags are --format and a flag for each option that some format
// declares (formats.Option): the flags of every command that reads a
// program.
func formatFlags() []cli.Flag {
	flags := []cli.Flag{formatFlag}
	for _, o := range formats.AllOptions() {
		flags = append(flags, optionFlag(o))
	}
	return flags
}

// optionFlag is the command-line flag of the format option o.
func optionFlag(o formats.Option) cli.Flag {
	usage := o.Usage
	if len(o.Values) > 0 {
		usage += " (" + strings.Join(o.Values, ", ") + ")"
	}
	if o.Multi {
		return &cli.StringSliceFlag{Name: o.Name, Aliases: o.Aliases, Usage: usage}
	}
	return &cli.StringFlag{Name: o.Name, Aliases: o.Aliases, Usage: usage}
}

// formatOptions collects the values of the format options given on the
// command line for a file of format f: a value the option does not allow
// is a usage error, and so is, with strict, an option that f does not
// read (fencer check, which reads files of several formats, is not strict:
// each file gets the options its format reads).
func formatOptions(c *cli.Context, f *formats.Format, strict bool) (formats.Options, error) {
	opt := formats.Options{}
	for _, o := range formats.AllOptions() {
		if !c.IsSet(o.Name) {
			continue
		}
		if !f.Accepts(o.Name) {
			if !strict {
				continue
			}
			return nil, fail(exitInput, "%s is not an option of %s input (%s)", optionName(c, o), f.Name, f.Doc)
		}
		vals := []string{c.String(o.Name)}
		if o.Multi {
			vals = c.StringSlice(o.Name)
		}
		for _, v := range vals {
			if len(o.Values) > 0 && !slices.Contains(o.Values, v) {
				return nil, fail(exitInput, "%s %q: want %s", optionName(c, o), v, strings.Join(o.Values, ", "))
			}
		}
		opt[o.Name] = vals
	}
	return opt, nil
}

// optionName names the option o with its aliases: "--define (-D)".
func optionName(_ *cli.Context, o formats.Option) string {
	name := flagName(o.Name)
	for _, a := range o.Aliases {
		name += " (" + flagName(a) + ")"
	}
	return name
}

// flagName is a flag as written: "-D", "--model".
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// noPropertyWarning is the warning for a program that states no
// property: no assert, mutex or forbidden (and, read from another format,
// none of what stands for them), so every run is correct and there is
// nothing to check. It is nil for a program with a property.
func noPropertyWarning(sys *cs.System) *formats.Warning {
	if len(sys.Bad) > 0 {
		return nil
	}
	for _, p := range sys.Procs {
		if p.ErrLoc >= 0 {
			return nil
		}
	}
	return &formats.Warning{Pos: cs.Position{Filename: sys.File.Name},
		Msg: "the program states no property (no assert, mutex or forbidden): every run is correct, so there is nothing to check"}
}

// warnNoProperty prints noPropertyWarning, if any, and keeps it for the
// JSON report of the command.
func warnNoProperty(sys *cs.System) {
	if w := noPropertyWarning(sys); w != nil {
		fmt.Fprintln(os.Stderr, w)
		inputWarnings = append(inputWarnings, *w)
	}
}

// argFormat returns the format of sys, the program of the command's FILE
// argument, and the format options given for it.
func argFormat(c *cli.Context, sys *cs.System) (*formats.Format, formats.Options, error) {
	f, err := formats.ForFile(sys.File.Name, c.String("format"))
	if err != nil {
		return nil, nil, fail(exitInput, "%v", err)
	}
	opt, err := formatOptions(c, f, true)
	return f, opt, err
}

// inputWarnings are the warnings of the reader on the program of the
// running command (parseArg), for its JSON report.
var inputWarnings []formats.Warning

// parseSource parses src, the program of the file name, in the format
// named format ("" for by the extension), with the format options of c
// (c may be nil: no options; strict: see formatOptions). A syntax error
// is a cs.ErrorList.
func parseSource(c *cli.Context, name string, src []byte, format string, strict bool) (*cs.System, []formats.Warning, error) {
	f, err := formats.ForFile(name, format)
	if err != nil {
		return nil, nil, fail(exitInput, "%v", err)
	}
	var opt formats.Options
	if c != nil {
		if opt, err = formatOptions(c, f, strict); err != nil {
			return nil, nil, err
		}
	}
	sys, warns, err := f.Parse(name, src, opt)
	if err == nil && f.Races != nil {
		warns = append(warns, checkRaces(c, f, sys, opt)...)
	}
	if err != nil && format != "" {
		if g := formats.ByExtension(name); g != f && f.Native {
			// "fencer show --format cs x.rmm" reads x.rmm as .cs.
			return nil, nil, fmt.Errorf("%v\n(--format %s reads %s as a .%s program; fencer show --cs prints a %s file as .cs)", err, f.Name, name, f.Name, g.Name)
		}
	}
	return sys, warns, err
}

// checkRaces runs the data-race check of the format on sys, logs what it
// checked (-v) and returns its warnings. A check that fails is a warning
// too: the program was read, and the analysis goes on.
func checkRaces(c *cli.Context, f *formats.Format, sys *cs.System, opt formats.Options) []formats.Warning {
	ctx := context.Background()
	if c != nil && c.Context != nil {
		ctx = c.Context
	}
	ws, note, err := f.Races(ctx, sys, opt)
	if err != nil {
		return []formats.Warning{{Pos: cs.Position{Filename: sys.File.Name}, Msg: fmt.Sprintf("the data-race check failed: %v", err)}}
	}
	log.Debugf("%s: %s", sys.File.Name, note)
	return ws
}

// parsePath reads and parses the program named by path ("-" for standard
// input) in format ("" for by the extension). A syntax error is a
// cs.ErrorList.
func parsePath(c *cli.Context, path, format string) (*cs.System, []formats.Warning, error) {
	if format == "" && svcomp.IsTask(path) {
		// verify and check read a task themselves (task.go).
		prog := "its program"
		if t, err := svcomp.Read(path); err == nil {
			prog = t.Input
		}
		return nil, nil, fail(exitInput, "%s: an SV-COMP task definition: fencer verify and fencer check read it; give this command %s", path, prog)
	}
	name, src, err := readInput(path)
	if err != nil {
		return nil, nil, err
	}
	return parseSource(c, name, src, format, true)
}

// checkCreatable reports, before any analysis, an output file that cannot
// be written: a missing directory, a directory in its place, no permission.
// It creates nothing and truncates nothing. "" and "-" (standard output)
// are always fine.
func checkCreatable(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fileError(path, errors.New("is a directory"))
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fileError(path, err)
		}
		return f.Close()
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fileError(path, err)
	}
	if !st.IsDir() {
		return fileError(path, errors.New("not a directory"))
	}
	f, err := os.CreateTemp(dir, ".fencer-*")
	if err != nil {
		return fileError(path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeFile writes an output file; a failure is "path: message" (exit 2).
func writeFile(path string, text []byte) error {
	if err := os.WriteFile(path, text, 0o644); err != nil {
		return fileError(path, err)
	}
	return nil
}
