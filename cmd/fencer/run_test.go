package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fencer/memmodel"
)

// needHW skips a test that runs a harness where fencer run --hw cannot.
func needHW(t *testing.T, threads int) {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skipf("fencer run --hw needs an x86-64 host, this is %s", runtime.GOARCH)
	}
	if runtime.NumCPU() < threads {
		t.Skipf("fencer run --hw needs %d CPUs, this host has %d", threads, runtime.NumCPU())
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("fencer run --hw needs gcc")
	}
}

func readRunJSON(t *testing.T, path string) runJSON {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r runJSON
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return r
}

// --rounds N runs exactly N rounds, and the output says a run is no proof.
func TestRunRounds(t *testing.T) {
	needHW(t, 2)
	js := filepath.Join(t.TempDir(), "r.json")
	out, stderr, code := fencer(t, "run", "--hw", "--rounds", "3000", "--json", js, bench("sb.cs"))
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	r := readRunJSON(t, js)
	if len(r.Variants) != 1 || r.Variants[0].Variant != "original" || r.Variants[0].Rounds != 3000 ||
		len(r.Variants[0].BadStates) != 1 || r.Variants[0].BadStates[0].Name != "P[0]@zero, P[1]@zero" {
		t.Errorf("report %+v", r)
	}
	if (code == 1) != (r.Variants[0].Hits > 0) {
		t.Errorf("exit %d with %d hits", code, r.Variants[0].Hits)
	}
	if !strings.Contains(out, noProof) {
		t.Errorf("no reminder that a run proves nothing:\n%s", out)
	}
}

// The programs with fencer's fences reach no bad state on x86 (asserted
// only there: on a weaker CPU the TSO fences need not suffice). How often
// the unfenced ones fail is a benchmark figure, not a test.
func TestRunFencedReachesNoBadState(t *testing.T) {
	needHW(t, 2)
	for _, tc := range []struct{ file, rounds string }{
		{bench("sb.cs"), "5000"},
		{bench("litmus/x86/sb.litmus"), "5000"},
		{bench("peterson.cs"), "300"},
		{bench("dekker_simple.cs"), "300"},
	} {
		js := filepath.Join(t.TempDir(), "r.json")
		out, stderr, code := fencer(t, "run", "--hw", "--compare", "--rounds", tc.rounds, "--iterations", "20", "--json", js, tc.file)
		if code != 0 {
			t.Errorf("%s: exit %d:\n%s%s", tc.file, code, out, stderr)
			continue
		}
		r := readRunJSON(t, js)
		if len(r.Variants) != 2 || r.Variants[1].Variant != "fenced" || r.Variants[1].Rounds == 0 || r.Variants[1].Hits != 0 {
			t.Errorf("%s: report %+v", tc.file, r)
		}
		if !strings.Contains(out, "unfenced: ") || !strings.Contains(out, "; fenced: 0 / ") {
			t.Errorf("%s: no comparison:\n%s", tc.file, out)
		}
	}
}

// run wants --hw; too many threads for the CPUs is exit 2 with the reason.
func TestRunRefuses(t *testing.T) {
	_, stderr, code := fencer(t, "run", bench("sb.cs"))
	if code != 2 || !strings.Contains(stderr, "--hw") {
		t.Errorf("without --hw: exit %d, %q", code, stderr)
	}
	if runtime.GOARCH == "amd64" && runtime.NumCPU() < 4 {
		_, stderr, code := fencer(t, "run", "--hw", bench("litmus/sdm_8_7_iriw.cs"))
		if code != 2 || !strings.Contains(stderr, "4 threads") || !strings.Contains(stderr, "CPU") {
			t.Errorf("4 threads on %d CPUs: exit %d, %q", runtime.NumCPU(), code, stderr)
		}
	}
}

// show --c prints a C program with the threads and the bad state.
func TestShowC(t *testing.T) {
	out, stderr, code := fencer(t, "show", "--c", bench("litmus/x86/sb.litmus"))
	if code != 0 || !strings.Contains(out, "pthread_create(&t[1], NULL, P1, NULL);") || !strings.Contains(out, "// fencer: forbidden P0@outcome, P1@outcome") {
		t.Errorf("exit %d, stderr %q:\n%s", code, stderr, out)
	}
}

// --check-model compares what the CPU showed with the SC and TSO verdicts
// of each bad state, and lists a test with too many threads as skipped.
func TestRunCheckModel(t *testing.T) {
	needHW(t, 2)
	out, stderr, code := fencer(t, "run", "--hw", "--check-model", "--time", "300ms",
		bench("litmus/x86/sb.litmus"), bench("litmus/sdm_8_1_mp.cs"), bench("litmus/sdm_8_7_iriw.cs"))
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, stderr)
	}
	for _, want := range []string{
		"| " + bench("litmus/x86/sb.litmus") + " | 2 | P0@outcome, P1@outcome | forbidden | allowed | ",
		"| " + bench("litmus/sdm_8_1_mp.cs") + " | 2 | P1@a1 | forbidden | forbidden | ",
		"relaxed outcomes TSO allows: ", "outcomes TSO forbids seen: 0.", noProof,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if runtime.NumCPU() < 4 && !strings.Contains(out, "skipped: 4 threads") {
		t.Errorf("IRIW not skipped:\n%s", out)
	}
}

// Under --model pso the run says that PSO's extra reorderings cannot show
// on an x86 CPU, and the fenced program's asserts are named at the lines
// of the original file, not of the patched text (issue 37: mp.c's assert
// at line 24 was reported at 26, below the fence inserted at line 15).
func TestRunPSO(t *testing.T) {
	for name, want := range map[string]bool{"pso": true, "tso": false, "sc": false} {
		m, err := memmodel.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := beyondCPU(m); (got != "") != want || want && !strings.Contains(got, "a write passing an earlier write") {
			t.Errorf("beyondCPU(%s) = %q", name, got)
		}
	}
	needHW(t, 2)
	js := filepath.Join(t.TempDir(), "r.json")
	out, stderr, code := fencer(t, "run", "--hw", "--model", "pso", "--compare", "--rounds", "200", "--json", js, bench("c/mp.c"))
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "is x86-TSO") || !strings.Contains(out, "cannot show on it") {
		t.Errorf("no word that PSO's reorderings cannot show:\n%s", out)
	}
	r := readRunJSON(t, js)
	if len(r.Variants) != 2 {
		t.Fatalf("report %+v", r)
	}
	for _, v := range r.Variants {
		if len(v.BadStates) != 1 || !strings.Contains(v.BadStates[0].Name, "mp.c:24:3 fails in reader") {
			t.Errorf("%s: bad states %+v, want the assert at mp.c:24:3", v.Variant, v.BadStates)
		}
	}
}

// originalOffset maps the characters of a patched text back to the
// original, and says which ones the patch added.
func TestOriginalOffset(t *testing.T) {
	a := "x = 1;\ny = 2;\nif (c) z = 3;\nassert(x);\n"
	b := "x = 1;\nfence;\ny = 2;\nif (c) { z = 3; fence; }\nassert(x);\n"
	orig := originalOffset([]byte(a), []byte(b))
	for _, word := range []string{"y = 2", "z = 3", "assert"} {
		got, ok := orig(strings.Index(b, word))
		if !ok || got != strings.Index(a, word) {
			t.Errorf("%q: %d %v, want %d", word, got, ok, strings.Index(a, word))
		}
	}
	if _, ok := orig(strings.Index(b, "fence")); ok {
		t.Error("a fence the patch added maps to the original")
	}
}

// A C program whose main starts two threads, joins them and checks their
// results runs on 2 CPUs: main runs before and after the threads, on no
// CPU of its own (issue 37: "the program has 3 threads and this process
// may use 2 CPUs"). With fencer's fences no round fails its assert.
func TestRunMainJoins(t *testing.T) {
	needHW(t, 2)
	js := filepath.Join(t.TempDir(), "r.json")
	out, stderr, code := fencer(t, "run", "--hw", "--compare", "--rounds", "3000", "--json", js, filepath.Join("testdata", "hw", "main_joins.c"))
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "2 threads on their own CPUs (main before and after them)") {
		t.Errorf("no word that main runs on no CPU of its own:\n%s", out)
	}
	r := readRunJSON(t, js)
	if len(r.Variants) != 2 || r.Variants[0].Rounds != 3000 || r.Variants[1].Rounds != 3000 || r.Variants[1].Hits != 0 {
		t.Errorf("report %+v", r)
	}
}
