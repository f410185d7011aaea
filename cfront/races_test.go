package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/races"
	"fencer/readkit"
)

// TestRaces: the data races of each file of testdata/races, by count and
// by variable, and as the user reads them (the golden file: the
// warnings, then the note of what was checked). Every search there is
// complete, so "no race" is a proof.
func TestRaces(t *testing.T) {
	want := map[string]string{
		"mutex_counter.c":         "",
		"flag_spinlock.c":         "",
		"flag_spinlock_relaxed.c": "counter",
		"mp_relacq.c":             "",
		"mp_relaxed.c":            "data",
		"mp_fences.c":             "",
		"mp_release_fence_only.c": "data",
		"release_sequence.c":      "",
		"join_read.c":             "",
		"main_before_join.c":      "result",
		"sb_plain.c":              "flag[0]", // flag[1]'s race is between the same two statements
		"forgot_lock.c":           "counter",
		"cas_failure_relaxed.c":   "data",
		"cas_failure_acquire.c":   "",
	}
	for _, path := range files(t, "races") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rc, err := Reader{}.Races(context.Background(), name, src, races.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if rc.Result == nil || !rc.Result.Complete {
				t.Fatalf("search not complete: %s", rc.Note)
			}
			var vars []string
			for _, e := range rc.Entries {
				vars = append(vars, e.Variable)
			}
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expectation for %s", name)
			}
			if got := strings.Join(vars, " "); got != w {
				t.Errorf("races on %q, want %q", got, w)
			}
			if len(rc.Entries) != len(rc.Warnings) {
				t.Errorf("%d entries for %d warnings", len(rc.Entries), len(rc.Warnings))
			}
			var b strings.Builder
			for _, w := range rc.Warnings {
				b.WriteString(w.String() + "\n")
			}
			b.WriteString(rc.Note + "\n")
			golden(t, path, []byte(b.String()))
		})
	}
}

// TestRacesFallBack: a file that AArch64's mapping refuses (an x86 asm
// fence) gets the static check's warnings, and the note says the runs
// were not searched.
func TestRacesFallBack(t *testing.T) {
	src := []byte(`#include <pthread.h>
int counter;
void *t(void *a) {
  counter = counter + 1;
  asm volatile("mfence" ::: "memory");
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, t, 0);
  return 0;
}
`)
	rc, err := Reader{}.Races(context.Background(), "asm.c", src, races.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if rc.Result != nil || len(rc.Warnings) != 1 || !strings.Contains(rc.Warnings[0].Msg, "counter is a plain shared variable") || !strings.Contains(rc.Note, "not searched") {
		t.Errorf("result %v, warnings %v, note %q", rc.Result, rc.Warnings, rc.Note)
	}
}

// TestRaceOrdersNoted: every read and write edge of every C file of
// testdata, read under AArch64's mapping, has its access noted, so the
// race check knows whether it is plain and its order (the fall back on
// the variable is for accesses the file has no position for); and the
// race check runs on each of them without an error.
func TestRaceOrdersNoted(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "*.c"))
	checked := 0
	for _, path := range paths {
		if filepath.Base(filepath.Dir(path)) == "errors" {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (Reader{}).Races(context.Background(), filepath.Base(path), src, races.Limits{MaxStates: 20000}); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		r := Reader{Target: TargetARM}
		file, prog, tr, err := r.readOnce(filepath.Base(path), src)
		if err != nil {
			continue // refused under AArch64 (an x86 asm fence)
		}
		sys, err := readkit.LowerWith(file, prog, r, cs.Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, p := range sys.Procs {
			for _, e := range p.Edges {
				if e.Op.Kind != cs.OpRead && e.Op.Kind != cs.OpWrite {
					continue
				}
				checked++
				if tr.accesses[accessKey{e.Pos, e.Op.Kind == cs.OpWrite}] == nil {
					t.Errorf("%s: %s %v: no access noted", path, sys.Position(e.Pos), e.Op)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d accesses checked", checked)
	}
}
