package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/formats"
)

// fakeOpts records the options the fake format's Parse was given.
var fakeOpts formats.Options

// A fake format with options, registered for the tests of this package
// only (the binary the other tests run does not have it): its files are
// .cs programs, and it declares the C reader's options (a repeatable -D
// and a --fence-style with fixed values), which it shares with format c.
func init() {
	formats.Register(&formats.Format{
		Name: "fake", Doc: "test format", Extensions: []string{".fake"},
		Parse: func(name string, src []byte, opt formats.Options) (*cs.System, []formats.Warning, error) {
			fakeOpts = opt
			sys, err := cs.Parse(name, src)
			return sys, []formats.Warning{{Pos: cs.Position{Filename: name, Line: 1, Col: 1}, Msg: "fake warning"}}, err
		},
		Program: func(name string, src []byte, _ formats.Options) (*cs.Program, error) {
			return cs.ParseProgram(cs.NewFile(name, src))
		},
		FenceKinds: []string{"full"},
		Expect:     formats.Comment{Open: "//"},
		Options:    formats.Lookup("c").Options, // options shared with a format are the same

	})
}

// The options a format declares become flags of the commands that read a
// program, reach its Parse in order, are refused for a format that does
// not declare them, and are checked against their values; they may come
// after the FILE.
func TestFormatOptionsWiring(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "x.fake")
	if err := os.WriteFile(fake, []byte("shared x;\nprocess P { x = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) error {
		app := newApp()
		for _, cmd := range app.Commands {
			if cmd.Name == "show" {
				cmd.Action = func(c *cli.Context) error {
					_, err := parseArg(c)
					return err
				}
			}
		}
		fakeOpts = nil
		return app.Run(reorderArgs(app, append([]string{"fencer"}, args...)))
	}
	if err := run("show", "-D", "N=3", fake, "--fence-style", "gcc", "-D", "M=1"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fakeOpts["define"], []string{"N=3", "M=1"}) || fakeOpts.Get("fence-style") != "gcc" {
		t.Errorf("options %v", fakeOpts)
	}
	if len(inputWarnings) != 1 || inputWarnings[0].String() != fake+":1:1: warning: fake warning" {
		t.Errorf("warnings %v", inputWarnings)
	}
	err := run("show", "--fence-style", "pretty", fake)
	if err == nil || !strings.Contains(err.Error(), `--fence-style "pretty": want c11, gcc, asm`) {
		t.Errorf("bad value: %v", err)
	}
	err = run("show", "--fence-style", "gcc", bench("sb.cs"))
	if err == nil || !strings.Contains(err.Error(), "--fence-style is not an option of cs input") {
		t.Errorf("--fence-style on .cs: %v", err)
	}
	err = run("show", "-D", "N=3", bench("rmm/peterson.rmm"))
	if err == nil || !strings.Contains(err.Error(), "--define (-D) is not an option of rmm input") {
		t.Errorf("-D on .rmm: %v", err)
	}
	// --format fake reads a .cs file with the fake format.
	if err := run("show", "--format", "fake", "-D", "A=1", bench("sb.cs")); err != nil || fakeOpts.Get("define") != "A=1" {
		t.Errorf("--format fake: %v %v", err, fakeOpts)
	}
}
