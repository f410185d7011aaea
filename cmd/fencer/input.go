package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/litmus"
	"fencer/rmm"
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
// program; without it the file's extension decides (.rmm, .litmus, else
// .cs).
var formatFlag = &cli.StringFlag{Name: "format", Usage: "input format: cs, rmm (Memorax) or litmus (herd x86); default: by the file's extension"}

// inputFormats are the values of --format.
var inputFormats = []string{"cs", "rmm", "litmus"}

// formatOf returns the input format of the file name: format if it is
// given, else by the extension.
func formatOf(name, format string) (string, error) {
	if format != "" {
		for _, f := range inputFormats {
			if f == format {
				return f, nil
			}
		}
		return "", fail(exitInput, "unknown input format %q (want %s)", format, strings.Join(inputFormats, ", "))
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".rmm":
		return "rmm", nil
	case ".litmus":
		return "litmus", nil
	}
	return "cs", nil
}

// parseSource parses src, the program of the file name, in format ("" for
// by the extension). A syntax error is a cs.ErrorList.
func parseSource(name string, src []byte, format string) (*cs.System, error) {
	f, err := formatOf(name, format)
	if err != nil {
		return nil, err
	}
	if err := checkDefinesFormat(name, f); err != nil {
		return nil, err
	}
	switch f {
	case "rmm":
		return rmm.Parse(name, src)
	case "litmus":
		return litmus.Parse(name, src)
	}
	sys, err := parseCS(name, src)
	if err != nil && format == "cs" {
		if g, _ := formatOf(name, ""); g != "cs" {
			// "fencer show --format cs x.rmm" reads x.rmm as .cs.
			return nil, fmt.Errorf("%v\n(--format cs reads %s as a .cs program; fencer show --cs prints a %s file as .cs)", err, name, g)
		}
	}
	return sys, err
}

// parsePath reads and parses the program named by path ("-" for standard
// input) in format ("" for by the extension). A syntax error is a
// cs.ErrorList.
func parsePath(path, format string) (*cs.System, error) {
	name, src, err := readInput(path)
	if err != nil {
		return nil, err
	}
	return parseSource(name, src, format)
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
