package main

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// junitSuites is the JUnit XML shape that CI systems read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// C1: check --junit writes one test case per expectation, and the XML
// survives an encoding/xml round trip unchanged.
func TestCheckJUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.xml")
	_, stderr, code := fencer(t, "check", "--junit", path, "testdata/wrong_expect.cs", bench("mp.cs"), "testdata/syntax.cs")
	if code != 2 {
		t.Fatalf("exit %d, want 2 (a file does not parse): %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), xml.Header) {
		t.Errorf("no XML header: %.80s", b)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	again, err := xml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var doc2 junitSuites
	if err := xml.Unmarshal(again, &doc2); err != nil || !reflect.DeepEqual(doc, doc2) {
		t.Fatalf("round trip: %v\n%+v\n%+v", err, doc, doc2)
	}
	if doc.Tests != 8 || doc.Failures != 1 || doc.Errors != 1 || len(doc.Suites) != 3 {
		t.Fatalf("totals: %+v", doc)
	}
	wrong := doc.Suites[0]
	if wrong.Name != "testdata/wrong_expect.cs" || wrong.Tests != 1 || wrong.Failures != 1 || len(wrong.Cases) != 1 {
		t.Fatalf("suite: %+v", wrong)
	}
	c := wrong.Cases[0]
	if c.Classname != "testdata/wrong_expect.cs" || c.Name != "tso fences=0" || c.Time == "" || c.Failure == nil || c.Error != nil {
		t.Fatalf("case: %+v", c)
	}
	for _, want := range []string{"expected", "fences=0", "got", "fences=2"} {
		if !strings.Contains(c.Failure.Message+c.Failure.Text, want) {
			t.Errorf("failure lacks %q: %+v", want, c.Failure)
		}
	}
	mp := doc.Suites[1]
	if len(mp.Cases) != 6 || mp.Cases[2].Name != "pso fences=1" || mp.Cases[2].Failure != nil || mp.Failures != 0 {
		t.Errorf("mp suite: %+v", mp)
	}
	bad := doc.Suites[2]
	if len(bad.Cases) != 1 || bad.Cases[0].Error == nil || !strings.Contains(bad.Cases[0].Error.Text, "testdata/syntax.cs:4:3: expected ';'") {
		t.Errorf("syntax error suite: %+v", bad)
	}
}

// C2: -j N runs files in parallel; the output is in input order whatever N.
func TestCheckJobsDeterministic(t *testing.T) {
	files := []string{bench("mp.cs"), "testdata/wrong_expect.cs", bench("sb.cs"), bench("lb.cs")}
	strip := func(out string) string { // times vary
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			if i := strings.LastIndex(l, " ("); i >= 0 && strings.HasSuffix(l, "s)") {
				l = l[:i]
			}
			lines = append(lines, l)
		}
		return strings.Join(lines, "\n")
	}
	one, _, code1 := fencer(t, append([]string{"check", "-j", "1"}, files...)...)
	four, _, code4 := fencer(t, append([]string{"check", "-j", "4"}, files...)...)
	if code1 != 1 || code4 != 1 || strip(one) != strip(four) {
		t.Errorf("-j 1 (exit %d):\n%s\n-j 4 (exit %d):\n%s", code1, one, code4, four)
	}
	if _, stderr, code := fencer(t, "check", "-j", "0", bench("mp.cs")); code != 2 || !strings.Contains(stderr, "--jobs") {
		t.Errorf("-j 0: exit %d, %s", code, stderr)
	}
}

// C3: a failing expectation shows the fence sites found and the count
// expected.
func TestCheckFailureDetails(t *testing.T) {
	out, _, code := fencer(t, "check", "testdata/wrong_expect.cs")
	want := "FAIL testdata/wrong_expect.cs:1: expect tso fences=0: got fences=2"
	if code != 1 || !strings.Contains(out, want) ||
		!strings.Contains(out, "expected 0 fences, found 2:") ||
		!strings.Contains(out, "testdata/wrong_expect.cs:3: after x = 1;") ||
		!strings.Contains(out, "testdata/wrong_expect.cs:4: after y = 1;") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// C1b: the JUnit XML of check is valid for a JUnit schema (docs/junit.xsd),
// checked by xmllint (libxml2-utils, installed by scripts/setup.sh), and a
// document that breaks the schema (a test case without its name) is refused, so the check can fail.
func TestCheckJUnitSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (scripts/setup.sh installs libxml2-utils)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "r.xml")
	if _, stderr, code := fencer(t, "check", "--junit", path, "testdata/wrong_expect.cs", bench("mp.cs"), "testdata/syntax.cs"); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, stderr)
	}
	validate := func(file string) (string, error) {
		out, err := exec.Command(xmllint, "--noout", "--schema", "../../docs/junit.xsd", file).CombinedOutput()
		return string(out), err
	}
	if out, err := validate(path); err != nil {
		t.Fatalf("check's JUnit XML does not validate: %v\n%s", err, out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.xml")
	if err := os.WriteFile(broken, []byte(strings.Replace(string(b), ` name="tso fences=0"`, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := validate(broken); err == nil || !strings.Contains(out, "'name' is required") {
		t.Fatalf("a test case without a name: %v\n%s", err, out)
	}
}

// check does not pass by checking nothing: a file without expectations
// fails (exit 1) unless --allow-empty, and a misspelled expectation is an
// input error at its line and column (exit 2).
func TestCheckNothingFails(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.cs")
	near := filepath.Join(dir, "near.cs")
	prog := "shared x;\nprocess P { x = 1; }\n"
	if err := os.WriteFile(empty, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(near, []byte("shared x;\n  /* fencer: expect tso safe */\nprocess P { x = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonPath := filepath.Join(dir, "r.json")
	out, _, code := fencer(t, "check", "--json", jsonPath, empty)
	if code != 1 || !strings.Contains(out, "FAIL "+empty+": no expectations") || !strings.HasSuffix(out, "0 passed, 1 failed\n") {
		t.Errorf("check empty: exit %d\n%s", code, out)
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil || !strings.Contains(string(b), `"empty": [`) || !strings.Contains(string(b), `"failed": 1`) {
		t.Errorf("check --json of an empty file: %v\n%s", err, b)
	}
	out, _, code = fencer(t, "check", "--allow-empty", empty)
	if code != 0 || !strings.HasSuffix(out, "0 passed, 0 failed\n") {
		t.Errorf("check --allow-empty: exit %d\n%s", code, out)
	}
	_, stderr, code := fencer(t, "check", "--allow-empty", near)
	if code != 2 || !strings.HasPrefix(stderr, near+":2:3: malformed expectation") {
		t.Errorf("check near miss: exit %d\n%s", code, stderr)
	}
}
