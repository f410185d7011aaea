package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// knownReport is the "known" object of a JSON report.
type knownReport struct {
	Verdict string `json:"verdict"`
	Known   *struct {
		SCCorrect bool            `json:"sc_correct"`
		Clean     []exploredEntry `json:"clean"`
		Stopped   *exploredEntry  `json:"stopped"`
	} `json:"known"`
}

type exploredEntry struct {
	Model       string   `json:"model"`
	Processes   []string `json:"processes"`
	MaxBuffered int      `json:"max_buffered"`
	Fenced      bool     `json:"fenced"`
	States      int      `json:"states"`
	Text        string   `json:"text"`
}

// runKnown runs fencer with args and --json, expects exit 3 and a line
// matching each of lines (regular expressions) in its human output
// (stderr, or stdout for verify), and returns the report and the text.
func runKnown(t *testing.T, lines []string, args ...string) (knownReport, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.json")
	stdout, stderr, code := fencer(t, append([]string{args[0], "--json", path}, args[1:]...)...)
	text := stderr + stdout
	for _, l := range lines {
		if !regexp.MustCompile("(?m)^" + l + "$").MatchString(text) {
			t.Errorf("fencer %s: no line %q in\n%s", strings.Join(args, " "), l, text)
		}
	}
	if code != 3 {
		t.Errorf("fencer %s: exit %d", strings.Join(args, " "), code)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	validateReport(t, strings.Join(args, " "), b)
	var rep knownReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "unknown" || rep.Known == nil {
		t.Fatalf("fencer %s: report %s", strings.Join(args, " "), b)
	}
	return rep, text
}

// statesIn is the number of abstract states a line of text matching rx
// (with one group, the number) says.
func statesIn(t *testing.T, text, rx string) int {
	t.Helper()
	m := regexp.MustCompile("(?m)^" + rx + "$").FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no line %q in\n%s", rx, text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// An insert stopped by --max-states in its SC check says which parts of
// the runs it found free of bad states and which exploration it stopped,
// in text and JSON. On the 3-process filter lock the part where P[0] and
// P[1] move is explored to its end within the limit, the whole graph is
// not: the state limit stops it at exactly 3000 states.
func TestInsertStoppedInSCReportsKnown(t *testing.T) {
	clean := `  SC: no bad state in the runs in which only P\[0\], P\[1\] move \(([0-9]+) abstract states\)`
	stopped := "stopped in the exploration of all runs under SC, after storing 3000 abstract states"
	rep, text := runKnown(t, []string{`proved before it stopped \(the program as a whole is not verified under TSO\):`, clean, stopped},
		"insert", "--max-states", "3000", "-D", "N=3", bench("scale/filter.cs"))
	k := rep.Known
	if k.SCCorrect || len(k.Clean) != 1 || k.Stopped == nil {
		t.Fatalf("known %+v", k)
	}
	c := k.Clean[0]
	if c.Model != "sc" || !slices.Equal(c.Processes, []string{"P[0]", "P[1]"}) || c.MaxBuffered != 0 || c.Fenced ||
		c.States != statesIn(t, text, clean) || c.States >= 3000 || !strings.Contains(text, "\n  "+c.Text+"\n") {
		t.Errorf("clean %+v", c)
	}
	if s := k.Stopped; s.Model != "sc" || s.Processes != nil || s.States != 3000 || s.Text != stopped {
		t.Errorf("stopped %+v", s)
	}
}

// An insert stopped in the TSO phase says that the SC check found the
// program correct, and that with the fence installed so far the part of
// the runs where P[0] and P[1] move with at most one write per buffer has
// no bad state (the 3-process Dijkstra lock: the exact-only part is
// explored to its end, the part with tails and the whole graph are not).
func TestInsertStoppedInTSOReportsKnown(t *testing.T) {
	clean := `  TSO with the fences above: no bad state in the runs in which only P\[0\], P\[1\] move and no store buffer holds more than 1 write \(([0-9]+) abstract states\)`
	rep, text := runKnown(t, []string{`  SC: correct \(no bad state in any run under SC\)`, clean,
		"stopped in the exploration of all runs under TSO with the fences above, after storing 20000 abstract states"},
		"insert", "--max-states", "20000", "-D", "N=3", bench("scale/dijkstra.cs"))
	k := rep.Known
	if !k.SCCorrect || len(k.Clean) != 1 || k.Stopped == nil || !k.Stopped.Fenced {
		t.Fatalf("known %+v", k)
	}
	if c := k.Clean[0]; c.Model != "tso" || len(c.Processes) != 2 || c.MaxBuffered != 1 || !c.Fenced || c.States != statesIn(t, text, clean) {
		t.Errorf("clean %+v", c)
	}
}

// verify reports what it proved when it stops too; a run that ends has no
// "known".
func TestVerifyStoppedReportsKnown(t *testing.T) {
	rep, _ := runKnown(t, []string{`proved before it stopped \(the program as a whole is not verified under SC\):`,
		`  SC: no bad state in the runs in which only P\[0\], P\[1\] move \([0-9]+ abstract states\)`,
		"stopped in the exploration of all runs under SC, after storing 3000 abstract states"},
		"verify", "--model", "sc", "--max-states", "3000", "-D", "N=3", bench("scale/filter.cs"))
	if len(rep.Known.Clean) != 1 || rep.Known.SCCorrect {
		t.Errorf("known %+v", rep.Known)
	}
	path := filepath.Join(t.TempDir(), "r.json")
	stdout, _, code := fencer(t, "verify", "--model", "sc", "--json", path, "-D", "N=3", bench("scale/filter.cs"))
	b, _ := os.ReadFile(path)
	if code != 0 || strings.Contains(stdout, "proved before it stopped") || strings.Contains(string(b), `"known"`) {
		t.Errorf("verify to the end: exit %d\n%s\n%s", code, stdout, b)
	}
}
