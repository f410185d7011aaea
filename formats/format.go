package formats

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"fencer/cs"
	"fencer/races"
)

// Format describes one input format. Every field but the optional ones
// (marked so) must be set; Register panics on a format that lacks one.
type Format struct {
	// Name is the value of --format and of cs.Reader.Format() for systems
	// this format's reader built ("cs" for .cs, whose systems have no
	// Reader).
	Name string
	// Doc is a short description for --help: "Memorax model".
	Doc string
	// Extensions are the file name endings of the format, with the dot,
	// in lower case: ".rmm". A file is matched case-insensitively.
	Extensions []string
	// Parse reads src, the file named filename, into a concurrent system.
	// A syntax or semantic error is a cs.ErrorList of positioned errors
	// (a nil System); warnings are returned with a system. opt holds the
	// values of the options the format declares (Options); it may be nil.
	Parse func(filename string, src []byte, opt Options) (*cs.System, []Warning, error)
	// Program returns the .cs syntax tree that Parse lowers, with
	// positions in src: it gives the statements that traces show and the
	// program that fencer show --cs prints. Traces of a System get it
	// through ProgramOf, which prefers a Program method of the System's
	// Reader: a reader whose syntax tree depends on its options (defines)
	// gives the Reader it puts in the System such a method.
	Program func(filename string, src []byte, opt Options) (*cs.Program, error)
	// Native says that the file is itself a .cs program: show --cs prints
	// it unchanged.
	Native bool
	// Text says how a trace shows one statement of the file.
	Text TextMode
	// ShowNote is optional: a comment for fencer show --cs to print under
	// its heading ("" for none), about how the .cs program differs from
	// the file.
	ShowNote func(src []byte) string
	// FenceKinds are the fence kinds the format's patched files can
	// express, among "full" and "store" (see CanFence); insert refuses
	// --kinds that asks for another. A format read by a cs.Reader takes
	// them from its reader (readerKinds).
	FenceKinds []string
	// NoStoreFence is optional: why the format has no store fence, for
	// the message that refuses --kinds store ("" for a generic one).
	NoStoreFence string
	// RemovesFences says that the format's reader can take fences of the
	// file out again (insert --reconsider; readerRemoves).
	RemovesFences bool
	// Expect is the comment syntax of the format's expectation lines,
	// "// fencer: expect MODEL WHAT" for .cs (see Expectations).
	Expect Comment
	// Races is optional: the data-race check of a format whose accesses
	// may be plain (C: cfront.Reader.Races), run once on the program a
	// command reads (not on the readings for a model or of a patched
	// text). It returns one warning per race, each with its Race entry
	// for the JSON report, and a note of what was checked, for the log.
	Races func(ctx context.Context, sys *cs.System, opt Options) ([]Warning, string, error)
	// Options are the per-run options the reader reads; nil for none.
	Options []Option
}

// TextMode is how a trace shows a statement of a file.
type TextMode uint8

const (
	// TextStatement shows the statement as written (the .cs syntax tree
	// spans the file's text): "flag[0] = 1;", "while (turn == 1)".
	TextStatement TextMode = iota
	// TextLine shows the source line of the statement, trimmed: for
	// readers whose statements do not span .cs text (.rmm).
	TextLine
	// TextCell shows the cell of a table that the statement is in: the
	// text up to the nearest '|' or ';' on each side within its line
	// (.litmus).
	TextCell
)

// Comment is the comment syntax of an expectation line: the line is
// Open, "fencer: expect MODEL WHAT", then Close ("" when the comment runs
// to the end of the line).
type Comment struct {
	Open, Close string
}

// Option is a per-run option of a reader, offered as a flag of every
// command that reads a program.
type Option struct {
	// Name is the flag's name ("define", written --define; "fence-style")
	// and the key of its values in Options.
	Name string
	// Aliases are other names of the flag: "D" (written -D).
	Aliases []string
	// Usage is the flag's help text.
	Usage string
	// Multi says the option may be given more than once (-D A=1 -D B=2);
	// its values are kept in order.
	Multi bool
	// Values are the allowed values, or nil for any.
	Values []string
}

// Options maps an option's Name to its values in the order given (one
// value unless the option is Multi). An option not given is absent.
type Options map[string][]string

// Get returns the last value of the option name, or "" when it is not
// given.
func (o Options) Get(name string) string {
	if v := o[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// Warning is something a reader noticed that does not stop the analysis
// (a data race the compiler may break, a construct mapped in a way the
// user may not expect): printed to stderr and put in the JSON report.
type Warning struct {
	Pos cs.Position
	Msg string
	// Race is the race a warning of Format.Races is about, for the JSON
	// report's races array; nil for other warnings.
	Race *races.Entry
}

// String is "file:line:col: warning: message".
func (w Warning) String() string { return w.Pos.String() + ": warning: " + w.Msg }

// CanFence reports whether the format's patched files can express a
// fence of kind ("full" or "store").
func (f *Format) CanFence(kind string) bool {
	for _, k := range f.FenceKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Accepts reports whether the format reads the option name.
func (f *Format) Accepts(name string) bool {
	for _, o := range f.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}

var registry []*Format

// Register adds f to the registry. It panics when f lacks a required
// field or when its name or one of its extensions is taken, or when it
// declares an option that another format declares differently: these are
// programming errors, found by any test that imports the package.
func Register(f *Format) {
	switch {
	case f.Name == "" || f.Parse == nil || f.Program == nil || len(f.Extensions) == 0:
		panic(fmt.Sprintf("formats: format %q lacks a name, Parse, Program or an extension", f.Name))
	case f.Expect.Open == "":
		panic(fmt.Sprintf("formats: format %q has no expectation syntax", f.Name))
	}
	for _, g := range registry {
		if g.Name == f.Name {
			panic("formats: format " + f.Name + " registered twice")
		}
		for _, e := range f.Extensions {
			for _, h := range g.Extensions {
				if e == h {
					panic("formats: extension " + e + " of " + f.Name + " is " + g.Name + "'s")
				}
			}
		}
		for _, o := range f.Options {
			for _, p := range g.Options {
				if o.Name == p.Name && (o.Multi != p.Multi || o.Usage != p.Usage || !slices.Equal(o.Aliases, p.Aliases)) {
					panic("formats: option " + o.Name + " of " + f.Name + " differs from " + g.Name + "'s")
				}
			}
		}
	}
	registry = append(registry, f)
	sort.Slice(registry, func(i, j int) bool { return registry[i].Name < registry[j].Name })
}

// All returns the registered formats in name order.
func All() []*Format { return append([]*Format(nil), registry...) }

// Names returns the names of the registered formats in name order.
func Names() []string {
	var out []string
	for _, f := range registry {
		out = append(out, f.Name)
	}
	return out
}

// AllOptions returns every option that some format declares, each once,
// in name order.
func AllOptions() []Option {
	seen := map[string]bool{}
	var out []Option
	for _, f := range registry {
		for _, o := range f.Options {
			if !seen[o.Name] {
				seen[o.Name] = true
				out = append(out, o)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the format named name, or nil.
func Lookup(name string) *Format {
	for _, f := range registry {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Default is the format of a file whose extension no format claims: .cs.
const Default = "cs"

// ByExtension returns the format of the file name by its extension, or
// the Default format when no format claims the extension.
func ByExtension(name string) *Format {
	ext := strings.ToLower(filepath.Ext(name))
	for _, f := range registry {
		for _, e := range f.Extensions {
			if e == ext {
				return f
			}
		}
	}
	return Lookup(Default)
}

// ForFile returns the format of the file name: the format named explicit
// when it is not "" (an error when there is none of that name), else the
// format of its extension.
func ForFile(name, explicit string) (*Format, error) {
	if explicit == "" {
		return ByExtension(name), nil
	}
	if f := Lookup(explicit); f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("unknown input format %q (want %s)", explicit, strings.Join(Names(), ", "))
}

// ProgramOf returns the .cs syntax tree of the file of sys, as the reader
// that built sys sees it: its Reader's Program method when it has one
// (which knows the options sys was read with), else its format's Program
// without options.
func ProgramOf(sys *cs.System) (*cs.Program, error) {
	if p, ok := sys.Reader.(interface {
		Program(filename string, src []byte) (*cs.Program, error)
	}); ok {
		return p.Program(sys.File.Name, sys.File.Src)
	}
	f := OfSystem(sys)
	if f == nil {
		return nil, fmt.Errorf("%s: no registered format %q", sys.File.Name, sys.Reader.Format())
	}
	return f.Program(sys.File.Name, sys.File.Src, nil)
}

// OfSystem returns the format that built sys: its Reader's, or the
// Default format for a system without a Reader. It returns nil for a
// Reader of a format that is not registered.
func OfSystem(sys *cs.System) *Format {
	if sys == nil || sys.Reader == nil {
		return Lookup(Default)
	}
	return Lookup(sys.Reader.Format())
}
