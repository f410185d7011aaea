package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRobustCommand(t *testing.T) {
	cases := []struct {
		args []string
		code int
		rx   string // matched against stdout
	}{
		{[]string{"robust", bench("producer_loop.cs")}, 0, `robust under tso: every TSO run is equivalent to an SC run`},
		{[]string{"robust", "--model", "pso", bench("producer_loop.cs")}, 1,
			`(?s)producer_loop\.cs:27: not robust under pso.*W writes d \(line 27\) then writes c \(line 28\); R reads c \(line 34\) then reads d \(line 35\)`},
		{[]string{"robust", bench("sb.cs")}, 1,
			`P\[0\] writes flag\[0\] \(line 20\) then reads flag\[1\] \(line 21\); P\[1\] writes flag\[1\] \(line 20\) then reads flag\[0\] \(line 21\)`},
		{[]string{"robust", "--model", "pso", bench("mp.cs")}, 1, `Writer writes data \(line 18\) then writes ready \(line 19\); Reader reads ready \(line 24\) then reads data \(line 25\)`},
		{[]string{"robust", "--model", "sc", bench("sb.cs")}, 0, `robust under sc`},
		{[]string{"robust", "testdata/syntax.cs"}, 2, ``},
		{[]string{"robust"}, 2, ``},
	}
	for _, c := range cases {
		out, stderr, code := fencer(t, c.args...)
		if code != c.code {
			t.Errorf("fencer %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(c.args, " "), code, c.code, out, stderr)
		}
		if !regexp.MustCompile(c.rx).MatchString(out) {
			t.Errorf("fencer %s: stdout %q does not match %q", strings.Join(c.args, " "), out, c.rx)
		}
	}
}

func TestInsertRobust(t *testing.T) {
	cases := []struct {
		file, model string
		after       []string // the statements fenced, in source order
	}{
		{"sb.cs", "tso", []string{"flag[i] = 1;"}},
		{"mp.cs", "pso", []string{"data = 1;"}},
		{"mp.cs", "tso", nil},
		{"dekker_simple.cs", "tso", []string{"flag[i] = 1;"}},
		{"peterson.cs", "tso", []string{"turn = i;"}},
		{"peterson.cs", "pso", []string{"flag[i] = 1;", "turn = i;"}},
		{"producer_loop.cs", "pso", []string{"d = n;"}},
	}
	for _, c := range cases {
		out, stderr, code := fencer(t, "insert", "--robust", "--model", c.model, bench(c.file))
		if code != 0 {
			t.Errorf("%s %s: exit %d\n%s", c.file, c.model, code, stderr)
			continue
		}
		var got []string
		for _, m := range regexp.MustCompile(`(?m)^  .*:\d+: after (.*)$`).FindAllStringSubmatch(stderr, -1) {
			got = append(got, m[1])
		}
		if strings.Join(got, "|") != strings.Join(c.after, "|") {
			t.Errorf("%s %s: fences after %q, want %q\n%s", c.file, c.model, got, c.after, stderr)
		}
		if strings.Count(out, "fence;") != len(c.after)+strings.Count(readBench(t, c.file), "fence;") {
			t.Errorf("%s %s: patched program has the wrong number of fences:\n%s", c.file, c.model, out)
		}
		// The output is robust: running --robust on it adds nothing.
		tmp := filepath.Join(t.TempDir(), c.file)
		if err := os.WriteFile(tmp, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if out2, _, code := fencer(t, "insert", "--robust", "--model", c.model, tmp); code != 0 || out2 != out {
			t.Errorf("%s %s: --robust on its own output changed it (exit %d)", c.file, c.model, code)
		}
	}
}

func readBench(t *testing.T, name string) string {
	b, err := os.ReadFile(bench(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The producer loop of issue 13: correct under TSO with no fence, proved by
// robustness (k stays 0: no buffer abstraction), well under a second of
// work; under PSO one fence after d = n;.
func TestProducerLoopInsert(t *testing.T) {
	js := filepath.Join(t.TempDir(), "r.json")
	start := time.Now()
	_, stderr, code := fencer(t, "insert", "--model", "tso", "--json", js, bench("producer_loop.cs"))
	took := time.Since(start)
	if code != 0 || !strings.Contains(stderr, "correct under tso, no fence needed") || !strings.Contains(stderr, "proof: correct under SC, and robust: every TSO run is equivalent to an SC run") {
		t.Fatalf("tso: exit %d\n%s", code, stderr)
	}
	var rep struct {
		Verdict string
		Stats   struct {
			K      int
			Robust string
		}
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "correct" || rep.Stats.K != 0 || rep.Stats.Robust != "robust: every TSO run is equivalent to an SC run" {
		t.Errorf("JSON report: %s", b)
	}
	t.Logf("tso: %v", took)
	_, stderr, code = fencer(t, "insert", "--model", "pso", bench("producer_loop.cs"))
	if code != 0 || !regexp.MustCompile(`correct under pso with 1 fence \(a minimum\):\n  .*producer_loop\.cs:27: after d = n;`).MatchString(stderr) {
		t.Fatalf("pso: exit %d\n%s", code, stderr)
	}
}

// insert --robust --json reports verdict robust and, for each fence, the
// critical cycle it breaks: a relaxed pair whose write the fence follows.
func TestInsertRobustJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	_, stderr, code := fencer(t, "insert", "--robust", "--model", "pso", "--json", path, bench("peterson.cs"))
	if code != 0 || strings.Count(stderr, "breaks the critical cycle: ") != 2 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	validateReport(t, "insert --robust", b)
	var rep struct {
		Verdict string `json:"verdict"`
		Fences  []struct {
			Line  int `json:"line"`
			Cycle *struct {
				Kind  string `json:"kind"`
				Write struct {
					Line int `json:"line"`
				} `json:"write"`
				Description string `json:"description"`
			} `json:"cycle"`
		} `json:"fences"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != "robust" || len(rep.Fences) != 2 {
		t.Fatalf("%s", b)
	}
	for _, f := range rep.Fences {
		if f.Cycle == nil || f.Cycle.Write.Line != f.Line || f.Cycle.Kind != "write-write" || f.Cycle.Description == "" {
			t.Errorf("fence at line %d: cycle %+v", f.Line, f.Cycle)
		}
	}
}
