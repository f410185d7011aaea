// Package svcomp reads SV-COMP task definitions: the .yml files of
// sv-benchmarks (format_version 1.0 to 2.0) that name a program, the
// properties to check on it with their expected verdicts, and its
// language and data model. fencer verify TASK.yml checks the one property
// fencer knows, unreach-call (no call of reach_error is reachable), under
// SC, the tasks' semantics; fencer check TASK.yml compares the answer with
// the expected verdict (docs/svcomp.md).
package svcomp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// UnreachCall is the file name of the property that fencer checks: no
// call of reach_error (or __VERIFIER_error, or __assert_fail) is
// reachable. A task names it by a path ("../properties/unreach-call.prp")
// that need not exist: fencer knows the property by this name.
const UnreachCall = "unreach-call.prp"

// Task is a task definition.
type Task struct {
	// Path is the .yml file as given.
	Path string
	// Input is the program: the task's one input file, relative to the
	// directory of Path as the task writes it, joined to it here.
	Input string
	// Properties are the task's properties, in order.
	Properties []Property
	// Language is options.language ("C"); DataModel is options.data_model
	// ("ILP32", "LP64"), "" when absent.
	Language, DataModel string
}

// Property is one entry of the task's properties.
type Property struct {
	// File is property_file as written.
	File string
	// Expected is expected_verdict, nil when the task gives none.
	Expected *bool
	// Subproperty is the optional subproperty (of a false verdict).
	Subproperty string
	// Line is the line of the entry in the .yml file.
	Line int
}

// Name is the file name of the property ("unreach-call.prp").
func (p Property) Name() string { return filepath.Base(p.File) }

// UnreachCall returns the task's unreach-call property, or false when it
// has none.
func (t *Task) UnreachCall() (Property, bool) {
	for _, p := range t.Properties {
		if p.Name() == UnreachCall {
			return p, true
		}
	}
	return Property{}, false
}

// Verdict is an answer in SV-COMP's terms.
type Verdict uint8

const (
	Unknown Verdict = iota
	True            // the property holds: no error call is reachable
	False           // the property is violated: an error call is reachable (with a trace)
)

func (v Verdict) String() string {
	switch v {
	case True:
		return "true"
	case False:
		return "false"
	}
	return "unknown"
}

// Of is the verdict b (an expected_verdict).
func Of(b bool) Verdict {
	if b {
		return True
	}
	return False
}

// IsTask reports whether path names a task definition (.yml or .yaml).
func IsTask(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yml" || ext == ".yaml"
}

// yamlLine matches the position in a message of the YAML parser.
var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// maxTaskSize bounds a task definition (they are a few hundred bytes).
const maxTaskSize = 1 << 20

// Read reads the task definition at path. An error names path and, for
// what is wrong inside the file, its line and column
// ("task.yml:4:14: ...").
func Read(path string) (*Task, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxTaskSize {
		return nil, fmt.Errorf("%s: too large for a task definition (%d bytes)", path, st.Size())
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse reads the task definition src, the file path.
func Parse(path string, src []byte) (*Task, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			return nil, fmt.Errorf("%s:%s: %s", path, m[1], m[2])
		}
		return nil, fmt.Errorf("%s: %s", path, msg)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:1:1: not a task definition (want a mapping with format_version, input_files and properties)", path)
	}
	p := &parser{path: path}
	t := &Task{Path: path}
	root := doc.Content[0]
	var inputs []string
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		seen[k.Value] = true
		switch k.Value {
		case "format_version":
			if !strings.HasPrefix(p.str(v), "1.") && p.str(v) != "2.0" {
				p.errorf(v, "format_version %q: fencer reads 1.x and 2.0", v.Value)
			}
		case "input_files":
			inputs = p.strings(v)
		case "properties":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "properties: want a list")
				continue
			}
			for _, e := range v.Content {
				t.Properties = append(t.Properties, p.property(e))
			}
		case "options":
			if v.Kind != yaml.MappingNode {
				p.errorf(v, "options: want a mapping")
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				switch ok, ov := v.Content[j], v.Content[j+1]; ok.Value {
				case "language":
					t.Language = p.str(ov)
				case "data_model":
					t.DataModel = p.str(ov)
					if t.DataModel != "ILP32" && t.DataModel != "LP64" {
						p.errorf(ov, "data_model %q: want ILP32 or LP64", t.DataModel)
					}
				}
			}
		}
	}
	for _, key := range []string{"format_version", "input_files", "properties"} {
		if !seen[key] {
			p.errorf(root, "no %s", key)
		}
	}
	switch {
	case seen["input_files"] && len(inputs) == 0:
		p.errorf(root, "input_files names no file")
	case len(inputs) > 1:
		p.errorf(root, "input_files names %d files: fencer reads a task of one file", len(inputs))
	case len(inputs) == 1:
		in := inputs[0]
		if !filepath.IsAbs(in) {
			in = filepath.Join(filepath.Dir(path), in)
		}
		t.Input = in
	}
	if t.Language != "" && !strings.EqualFold(t.Language, "C") {
		p.errorf(root, "language %s: fencer reads C tasks", t.Language)
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return t, nil
}

// parser collects the errors of one file with their positions.
type parser struct {
	path string
	errs []error
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s:%d:%d: %s", p.path, n.Line, n.Column, fmt.Sprintf(format, args...)))
}

// str is a scalar's value.
func (p *parser) str(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "want a single value")
		return ""
	}
	return n.Value
}

// strings is a scalar or a list of scalars.
func (p *parser) strings(n *yaml.Node) []string {
	if n.Kind == yaml.SequenceNode {
		var out []string
		for _, e := range n.Content {
			out = append(out, p.str(e))
		}
		return out
	}
	return []string{p.str(n)}
}

func (p *parser) property(n *yaml.Node) Property {
	prop := Property{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "a property: want a mapping with property_file and expected_verdict")
		return prop
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "property_file":
			prop.File = p.str(v)
		case "expected_verdict":
			var b bool
			if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
				p.errorf(v, "expected_verdict %q: want true or false", v.Value)
				continue
			}
			prop.Expected = &b
		case "subproperty":
			prop.Subproperty = p.str(v)
		}
	}
	if prop.File == "" {
		p.errorf(n, "a property without property_file")
	}
	return prop
}
