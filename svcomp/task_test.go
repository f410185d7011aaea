package svcomp

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := `format_version: '2.0'

# a comment
input_files: 'prog.i'

properties:
  - property_file: ../properties/no-data-race.prp
    expected_verdict: false
  - property_file: ../properties/unreach-call.prp
    expected_verdict: true

options:
  language: C
  data_model: ILP32
`
	task, err := Parse(filepath.Join("dir", "t.yml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if task.Input != filepath.Join("dir", "prog.i") || task.DataModel != "ILP32" || task.Language != "C" || len(task.Properties) != 2 {
		t.Errorf("%+v", task)
	}
	p, ok := task.UnreachCall()
	if !ok || p.Expected == nil || !*p.Expected || p.Line != 9 || p.Name() != UnreachCall {
		t.Errorf("unreach-call: %+v %v", p, ok)
	}
	// Format 1.x, a list of one input file, no expected verdict.
	task, err = Parse("t.yml", []byte("format_version: '1.0'\ninput_files:\n  - 'a.c'\nproperties:\n  - property_file: unreach-call.prp\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := task.UnreachCall(); !ok || p.Expected != nil || task.Input != "a.c" {
		t.Errorf("1.0: %+v %+v", task, p)
	}
	if _, ok := (&Task{Properties: []Property{{File: "valid-memsafety.prp"}}}).UnreachCall(); ok {
		t.Error("valid-memsafety.prp taken for unreach-call")
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"input_files: a.c\nproperties: []\n", "t.yml:1:1: no format_version"},
		{"format_version: '3.0'\ninput_files: a.c\nproperties: []\n", `t.yml:1:17: format_version "3.0": fencer reads 1.x and 2.0`},
		{"format_version: '2.0'\ninput_files: [a.c, b.c]\nproperties: []\n", "t.yml:1:1: input_files names 2 files: fencer reads a task of one file"},
		{"format_version: '2.0'\ninput_files: a.c\nproperties:\n  - expected_verdict: true\n", "t.yml:4:5: a property without property_file"},
		{"format_version: '2.0'\ninput_files: a.c\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: 1x\n", `t.yml:5:23: expected_verdict "1x": want true or false`},
		{"format_version: '2.0'\ninput_files: a.c\nproperties: []\noptions:\n  language: Java\n", "t.yml:1:1: language Java: fencer reads C tasks"},
		{"format_version: '2.0'\ninput_files: a.c\nproperties: []\noptions:\n  data_model: LP32\n", `t.yml:5:15: data_model "LP32": want ILP32 or LP64`},
		{"[1, 2]\n", "t.yml:1:1: not a task definition"},
		{"a: [\n", "t.yml:1: did not find expected node content"},
	}
	for _, c := range cases {
		_, err := Parse("t.yml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

func TestIsTaskAndVerdicts(t *testing.T) {
	for path, want := range map[string]bool{"a.yml": true, "b.YAML": true, "c.c": false, "yml": false} {
		if IsTask(path) != want {
			t.Errorf("IsTask(%q) != %v", path, want)
		}
	}
	if Of(true).String() != "true" || Of(false).String() != "false" || Unknown.String() != "unknown" {
		t.Error("verdict words")
	}
}
