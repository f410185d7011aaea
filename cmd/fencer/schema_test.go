package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// This file checks JSON reports against docs/report.schema.json. No JSON
// Schema library is in the module cache, so schemaCheck below implements
// the part of JSON Schema 2020-12 that the schema uses (type, const, enum,
// required, properties, additionalProperties, items, minItems, maxItems, minimum,
// $ref to $defs, oneOf, allOf, if/then/else, not); it shares no code with
// the report writer. When python3 with the jsonschema package is on the
// machine, TestSchemaWithPythonJSONSchema also validates with it, as a
// check of schemaCheck itself.

var (
	schemaOnce sync.Once
	schemaDoc  map[string]any
	schemaErr  error
)

func reportSchema(t *testing.T) map[string]any {
	t.Helper()
	schemaOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", "report.schema.json"))
		if err != nil {
			schemaErr = err
			return
		}
		schemaErr = json.Unmarshal(b, &schemaDoc)
	})
	if schemaErr != nil {
		t.Fatalf("docs/report.schema.json: %v", schemaErr)
	}
	return schemaDoc
}

// validateReport fails t when the report in b does not match the schema.
func validateReport(t *testing.T, what string, b []byte) {
	t.Helper()
	var doc any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Errorf("%s: not JSON: %v", what, err)
		return
	}
	root := reportSchema(t)
	if errs := schemaCheck(root, root, doc, "$"); len(errs) > 0 {
		t.Errorf("%s does not match docs/report.schema.json:\n  %s", what, strings.Join(errs, "\n  "))
	}
}

// schemaCheck returns the violations of schema s (within root) by v at path.
func schemaCheck(root, s map[string]any, v any, path string) []string {
	var errs []string
	bad := func(format string, args ...any) {
		errs = append(errs, path+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := s["$ref"].(string); ok {
		target := lookupRef(root, ref)
		if target == nil {
			bad("unknown $ref %s", ref)
			return errs
		}
		errs = append(errs, schemaCheck(root, target, v, path)...)
	}
	if ty, ok := s["type"].(string); ok && !hasType(v, ty) {
		bad("want %s, got %s", ty, jsonType(v))
		return errs
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		bad("want %v, got %v", c, v)
	}
	if en, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range en {
			found = found || jsonEqual(e, v)
		}
		if !found {
			bad("%v is not one of %v", v, en)
		}
	}
	if min, ok := s["minimum"].(float64); ok {
		if n, isNum := v.(json.Number); isNum {
			if f, err := n.Float64(); err == nil && f < min {
				bad("%v < minimum %v", n, min)
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, r := range asList(s["required"]) {
			if _, has := obj[r.(string)]; !has {
				bad("missing required %q", r)
			}
		}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, schemaCheck(root, ps, obj[k], path+"."+k)...)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					bad("unexpected key %q", k)
				}
			case map[string]any:
				errs = append(errs, schemaCheck(root, ap, obj[k], path+"."+k)...)
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if mi, ok := s["minItems"].(float64); ok && float64(len(arr)) < mi {
			bad("%d items, want at least %v", len(arr), mi)
		}
		if mi, ok := s["maxItems"].(float64); ok && float64(len(arr)) > mi {
			bad("%d items, want at most %v", len(arr), mi)
		}
		if it, ok := s["items"].(map[string]any); ok {
			for i, x := range arr {
				errs = append(errs, schemaCheck(root, it, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	for _, sub := range asList(s["allOf"]) {
		errs = append(errs, schemaCheck(root, sub.(map[string]any), v, path)...)
	}
	if one := asList(s["oneOf"]); len(one) > 0 {
		n := 0
		var why []string
		for _, sub := range one {
			e := schemaCheck(root, sub.(map[string]any), v, path)
			if len(e) == 0 {
				n++
			}
			why = append(why, e...)
		}
		if n != 1 {
			bad("matches %d of the oneOf schemas, want 1 (%s)", n, strings.Join(why, "; "))
		}
	}
	if not, ok := s["not"].(map[string]any); ok && len(schemaCheck(root, not, v, path)) == 0 {
		bad("matches a schema it must not (%v)", not)
	}
	if cond, ok := s["if"].(map[string]any); ok {
		branch := "else"
		if len(schemaCheck(root, cond, v, path)) == 0 {
			branch = "then"
		}
		if b, ok := s[branch].(map[string]any); ok {
			errs = append(errs, schemaCheck(root, b, v, path)...)
		}
	}
	return errs
}

func asList(x any) []any {
	l, _ := x.([]any)
	return l
}

func lookupRef(root map[string]any, ref string) map[string]any {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var cur any = root
	for _, part := range strings.Split(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	m, _ := cur.(map[string]any)
	return m
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && !strings.ContainsAny(x.String(), ".eE") {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func hasType(v any, ty string) bool {
	got := jsonType(v)
	return got == ty || ty == "number" && got == "integer"
}

// jsonEqual compares a schema value (decoded with float64 numbers) with a
// document value (json.Number).
func jsonEqual(a, b any) bool {
	if n, ok := b.(json.Number); ok {
		f, err := n.Float64()
		af, isF := a.(float64)
		return err == nil && isF && af == f
	}
	return a == b
}

// checkReportsOf validates the report a fencer run wrote, if it was an
// insert or verify with --json FILE (called by the fencer helper, so that
// every report the tests write is checked).
func checkReportsOf(t *testing.T, args []string, stdout string) {
	t.Helper()
	cmd := ""
	for _, a := range args {
		if a == "insert" || a == "verify" || a == "explore" {
			cmd = a
			break
		}
		if !strings.HasPrefix(a, "-") {
			return // another command
		}
	}
	if cmd == "" {
		return
	}
	for i, a := range args {
		path := ""
		switch {
		case a == "--json" && i+1 < len(args):
			path = args[i+1]
		case strings.HasPrefix(a, "--json="):
			path = strings.TrimPrefix(a, "--json=")
		default:
			continue
		}
		if path == "-" {
			if stdout == "" {
				continue // refused before any report (the test's point)
			}
			validateReport(t, "the report on stdout of fencer "+strings.Join(args, " "), []byte(stdout))
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			continue // not written (an error before the run, or the test's point)
		}
		validateReport(t, path+" of fencer "+strings.Join(args, " "), b)
	}
}

// The validator rejects what it must: each mutation of a valid report
// breaks one rule of the schema.
func TestSchemaCheckRejects(t *testing.T) {
	root := reportSchema(t)
	path := filepath.Join(t.TempDir(), "r.json")
	fencer(t, "verify", "--model", "pso", "--json", path, bench("mp.cs"))
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decode := func() map[string]any {
		var doc map[string]any
		d := json.NewDecoder(bytes.NewReader(good))
		d.UseNumber()
		if err := d.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	if errs := schemaCheck(root, root, decode(), "$"); len(errs) > 0 {
		t.Fatalf("a fresh report fails: %v", errs)
	}
	step0 := func(d map[string]any) map[string]any {
		return d["trace"].(map[string]any)["steps"].([]any)[0].(map[string]any)
	}
	mutations := map[string]func(d map[string]any){
		"no version":            func(d map[string]any) { delete(d, "version") },
		"version 2":             func(d map[string]any) { d["version"] = json.Number("2") },
		"unknown verdict":       func(d map[string]any) { d["verdict"] = "maybe" },
		"extra key":             func(d map[string]any) { d["extra"] = true },
		"buffers as a string":   func(d map[string]any) { step0(d)["buffers"] = "P[0]: x=1" },
		"line as a string":      func(d map[string]any) { step0(d)["line"] = "18" },
		"no property":           func(d map[string]any) { d["trace"].(map[string]any)["property"] = nil },
		"refinements lack k":    func(d map[string]any) { delete(d["stats"].(map[string]any)["refinements"].(map[string]any), "k") },
		"fractional step":       func(d map[string]any) { step0(d)["step"] = json.Number("1.5") },
		"unsafe without trace":  func(d map[string]any) { delete(d, "trace") },
		"error with stats":      func(d map[string]any) { d["verdict"] = "error"; d["errors"] = []any{"x"} },
		"negative states":       func(d map[string]any) { d["stats"].(map[string]any)["states"] = json.Number("-1") },
		"unknown action":        func(d map[string]any) { step0(d)["action"] = "jump" },
		"memory value a string": func(d map[string]any) { step0(d)["memory"].(map[string]any)["data"] = "0" },
		"explore stats": func(d map[string]any) {
			d["stats"] = map[string]any{"states": json.Number("1"), "depth": json.Number("1"), "time_seconds": json.Number("0")}
		},
	}
	for name, mutate := range mutations {
		d := decode()
		mutate(d)
		if errs := schemaCheck(root, root, d, "$"); len(errs) == 0 {
			t.Errorf("%s: the mutated report passes", name)
		}
	}
}

// Reports of every verdict validate: correct (with fences and their
// witnesses), sc-bug, unsafe under TSO and PSO, unknown, error, and the
// report on standard output.
func TestReportsMatchSchema(t *testing.T) {
	dir := t.TempDir()
	runs := [][]string{
		{"insert", "--json", filepath.Join(dir, "a.json"), bench("peterson.cs")},
		{"insert", "--model", "pso", "--json", filepath.Join(dir, "b.json"), bench("mp.cs")},
		{"insert", "--json", filepath.Join(dir, "c.json"), bench("sc_bug.cs")},
		{"verify", "--json", filepath.Join(dir, "d.json"), bench("sb.cs")},
		{"verify", "--model", "sc", "--json", filepath.Join(dir, "e.json"), bench("sb.cs")},
		{"verify", "--max-states", "10", "--json", filepath.Join(dir, "f.json"), bench("peterson.cs")},
		{"verify", "--json", filepath.Join(dir, "g.json"), "testdata/syntax.cs"},
		{"verify", "--model", "pso", "--json", "-", bench("mp.cs")},
		{"insert", "--json", filepath.Join(dir, "h.json"), bench("spinlock_cas.cs")},
		{"explore", "--json", filepath.Join(dir, "i.json"), bench("sb.cs")},
		{"explore", "--model", "sc", "--json", filepath.Join(dir, "j.json"), bench("sb.cs")},
		{"explore", "--max-states", "5", "--json", filepath.Join(dir, "k.json"), bench("peterson.cs")},
		{"explore", "--json", filepath.Join(dir, "l.json"), "testdata/syntax.cs"},
	}
	for _, args := range runs {
		fencer(t, args...) // the helper validates the report
	}
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		if _, err := os.Stat(filepath.Join(dir, f+".json")); err != nil {
			t.Errorf("report %s.json not written: %v", f, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "g.json"))
	var rep struct {
		Verdict string
		Errors  []string
	}
	if err := json.Unmarshal(b, &rep); err != nil || rep.Verdict != "error" || len(rep.Errors) == 0 || !strings.Contains(rep.Errors[0], "syntax.cs:4:3:") {
		t.Errorf("error report: %s", b)
	}
}

// The schema itself is valid JSON Schema and the reports match it by the
// reference implementation's judgment too, when python3 has jsonschema.
func TestSchemaWithPythonJSONSchema(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	if err := exec.Command("python3", "-c", "import jsonschema").Run(); err != nil {
		t.Skip("python3 has no jsonschema package")
	}
	dir := t.TempDir()
	var files []string
	for i, args := range [][]string{
		{"insert", "--model", "pso", bench("peterson.cs")},
		{"verify", bench("sb.cs")},
		{"insert", bench("sc_bug.cs")},
		{"verify", "testdata/syntax.cs"},
		{"explore", "--model", "pso", bench("mp.cs")},
		{"verify", filepath.Join("..", "..", "cfront", "testdata", "races", "mp_relaxed.c")},
		{"explore", filepath.Join("..", "..", "cfront", "testdata", "races", "forgot_lock.c")},
	} {
		f := filepath.Join(dir, fmt.Sprintf("r%d.json", i))
		fencer(t, append([]string{args[0], "--json", f}, args[1:]...)...)
		files = append(files, f)
	}
	script := `import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad = 0
for f in sys.argv[2:]:
    for e in v.iter_errors(json.load(open(f))):
        print(f, list(e.absolute_path), e.message); bad += 1
sys.exit(1 if bad else 0)
`
	out, err := exec.Command("python3", append([]string{"-c", script, filepath.Join("..", "..", "docs", "report.schema.json")}, files...)...).CombinedOutput()
	if err != nil {
		t.Errorf("python jsonschema: %v\n%s", err, out)
	}
}

// --json - puts the report on standard output: verify then prints its
// verdict on stderr; insert needs -o or -w for the program.
func TestJSONOnStdout(t *testing.T) {
	out, stderr, code := fencer(t, "verify", "--json", "-", bench("sb.cs"))
	if code != 1 || !strings.HasPrefix(out, "{\n  \"version\": 1,") || !strings.Contains(stderr, "unsafe under tso") {
		t.Errorf("verify --json -: exit %d\nstdout %.200s\nstderr %.200s", code, out, stderr)
	}
	_, stderr, code = fencer(t, "insert", "--json", "-", bench("sb.cs"))
	if code != 2 || !strings.Contains(stderr, "add -o FILE or -w") {
		t.Errorf("insert --json - alone: exit %d, stderr %q", code, stderr)
	}
	patched := filepath.Join(t.TempDir(), "p.cs")
	out, _, code = fencer(t, "insert", "--json", "-", "-o", patched, bench("sb.cs"))
	if b, err := os.ReadFile(patched); code != 0 || err != nil || !strings.Contains(string(b), "fence;") || !strings.Contains(out, `"verdict": "correct"`) {
		t.Errorf("insert --json - -o: exit %d, %v\n%.300s", code, err, out)
	}
}
