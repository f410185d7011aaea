package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// raceFile is a file of cfront's testdata/races.
func raceFile(name string) string {
	return filepath.Join("..", "..", "cfront", "testdata", "races", name)
}

// TestRaceWarnings: verify warns of a data race only where one exists.
// Lock-protected data, data published by release/acquire and data main
// reads after the joins get no warning, on stderr or in the JSON report
// (the static check warned of each of them: every plain variable two
// threads access, one writing); a race gets one warning that names both
// accesses with file:line:col, and a races entry with both accesses and
// a run. Under arm too (the report of the axiomatic models).
func TestRaceWarnings(t *testing.T) {
	for _, tc := range []struct {
		path   string
		race   string   // the variable, or "" for none
		models []string // the lock programs are slow under arm (the explorer's, not the race check's)
	}{
		{raceFile("mutex_counter.c"), "", []string{"tso"}},
		{raceFile("flag_spinlock.c"), "", []string{"tso"}},
		{raceFile("mp_relacq.c"), "", []string{"tso", "arm"}},
		{raceFile("join_read.c"), "", []string{"tso", "arm"}},
		{bench(filepath.Join("c", "mp_relacq_weak.c")), "", []string{"tso", "arm"}},
		{raceFile("mp_relaxed.c"), "data", []string{"tso", "arm"}},
		{raceFile("sb_plain.c"), "flag[0]", []string{"tso", "arm"}},
	} {
		for _, model := range tc.models {
			t.Run(filepath.Base(tc.path)+"/"+model, func(t *testing.T) {
				js := filepath.Join(t.TempDir(), "r.json")
				_, stderr, _ := fencer(t, "verify", "--model", model, "--json", js, tc.path)
				b, err := os.ReadFile(js)
				if err != nil {
					t.Fatal(err)
				}
				var rep struct {
					Warnings []string
					Races    []struct {
						Variable string
						Accesses []struct {
							Process   string
							Line      int
							Column    int
							Kind      string
							Plain     bool
							Statement string
						}
						Run []struct {
							Process string
							Line    int
						}
					}
				}
				if err := json.Unmarshal(b, &rep); err != nil {
					t.Fatal(err)
				}
				warned := strings.Count(stderr, "warning: data race on ") + strings.Count(stderr, "is a plain shared variable")
				if tc.race == "" {
					if warned != 0 || len(rep.Races) != 0 {
						t.Errorf("a race warning where there is none:\n%s\n%s", stderr, b)
					}
					return
				}
				if warned != 1 || len(rep.Races) != 1 {
					t.Fatalf("%d warnings, %d races, want 1:\n%s\n%s", warned, len(rep.Races), stderr, b)
				}
				r := rep.Races[0]
				if r.Variable != tc.race || len(r.Accesses) != 2 || len(r.Run) == 0 {
					t.Fatalf("race %+v", r)
				}
				base := filepath.Base(tc.path)
				for _, a := range r.Accesses {
					if a.Line < 1 || a.Column < 1 || a.Statement == "" || !a.Plain {
						t.Errorf("access %+v", a)
					}
					if where := base + ":" + itoa(a.Line) + ":" + itoa(a.Column); !strings.Contains(stderr, where) {
						t.Errorf("stderr does not name %s:\n%s", where, stderr)
					}
				}
				if a, b := r.Accesses[0], r.Accesses[1]; a.Process == b.Process || a.Kind == "read" && b.Kind == "read" {
					t.Errorf("not a race: %+v", r.Accesses)
				}
				last := r.Run[len(r.Run)-1]
				if second := r.Accesses[1]; last.Process != second.Process || last.Line != second.Line {
					t.Errorf("the run ends at %+v, not at the second access %+v", last, second)
				}
			})
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestRaceNote: -v says what the race check covered: every SC run of a
// lock-protected counter, and not every run of one that grows without
// bound, where no warning is not a proof.
func TestRaceNote(t *testing.T) {
	_, stderr, _ := fencer(t, "-v", "verify", raceFile("mutex_counter.c"))
	if !strings.Contains(stderr, "data races: searched every SC run") {
		t.Errorf("no note of a complete search:\n%s", stderr)
	}
	src := filepath.Join(t.TempDir(), "forever.c")
	if err := os.WriteFile(src, []byte(`#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
void *worker(void *arg) {
  (void)arg;
  while (1) {
    pthread_mutex_lock(&m);
    counter = counter + 1;
    pthread_mutex_unlock(&m);
  }
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  return 0;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, _ = fencer(t, "-v", "verify", "--timeout", "20s", src)
	if !strings.Contains(stderr, "not every run (the state limit") || strings.Contains(stderr, "warning: data race") {
		t.Errorf("want a note of a bounded search and no warning:\n%s", stderr)
	}
}
