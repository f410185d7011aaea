package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
)

// TestBenchmarksPatched runs fencer insert on the C benchmarks under TSO
// and PSO through the engine's API: every patched file compiles with gcc,
// reads back and is verified correct from scratch, and where fences were
// added the original is unsafe under the model. Each style is used once.
// With -short only the small ones run; dijkstra_3 runs under PSO only (its
// insert under TSO takes 25 s on a loaded machine).
func TestBenchmarksPatched(t *testing.T) {
	small := []string{"sb", "mp", "lb", "peterson", "dekker_simple", "dekker_full", "burns", "dijkstra", "spsc_ring", "lamport_fast", "ticket_lock",
		"mp_relaxed_weak", "mp_relacq_weak", "sb_seqcst_weak", "seqlock_weak", "spinlock_weak"}
	large := []string{"iriw", "burns_3", "filter_3", "ticket_3", "bakery", "szymanski_3", "dijkstra_3"}
	names := small
	if !testing.Short() {
		names = append(names, large...)
	}
	// Every C benchmark is here, so that every patched file of the suite
	// is compiled and verified.
	all, _ := filepath.Glob(filepath.Join("..", "benchmarks", "c", "*.c"))
	if len(all) != len(small)+len(large) {
		t.Errorf("%d C benchmarks, %d in this test: add the new ones", len(all), len(small)+len(large))
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	styles := []Style{StyleC11, StyleGCC, StyleAsm}
	n := 0
	for _, name := range names {
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			if name == "dijkstra_3" && m == memmodel.TSO {
				continue
			}
			style := styles[n%len(styles)]
			n++
			t.Run(name+"/"+m.String()+"/"+string(style), func(t *testing.T) {
				path := filepath.Join("..", "benchmarks", "c", name+".c")
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				r := Reader{Style: style}
				sys, err := r.Parse(name+".c", src)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				opt := cegar.Options{Model: m}
				res, patched, err := cegar.Insert(ctx, sys, sol, opt)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != cegar.Correct {
					t.Fatalf("verdict %v: %s", res.Verdict, res.Reason)
				}
				verifyPatched(ctx, t, r, name+".c", patched, sol, m)
				if len(res.Fences) == 0 {
					if string(patched) != string(src) {
						t.Error("no fence, yet the file changed")
					}
					return
				}
				o, err := cegar.Verify(ctx, sys, sol, opt)
				if err != nil || o.Verdict != cegar.Unsafe {
					t.Errorf("fences were added, yet the original is %v (%v)", o.Verdict, err)
				}
			})
		}
	}
}

// TestReconsider: with Options.Reconsider the fences of a C file are
// candidates: under TSO one of its three fences stays, the other two lines
// are deleted; the result is the golden file, compiles, and is verified.
func TestReconsider(t *testing.T) {
	path := filepath.Join("testdata", "reconsider", "fenced.c")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	r := Reader{}
	sys, err := r.Parse("fenced.c", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, patched, err := cegar.Insert(ctx, sys, sol, cegar.Options{Model: memmodel.TSO, Reconsider: true})
	if err != nil || res.Verdict != cegar.Correct {
		t.Fatalf("%v %v", res, err)
	}
	if len(res.Removed) != 2 {
		t.Errorf("removed %d fences, want 2", len(res.Removed))
	}
	golden(t, path, patched)
	verifyPatched(ctx, t, r, "fenced.c", patched, sol, memmodel.TSO)
}

// TestStoreFences: under PSO with store fences allowed, MP in C gets one
// atomic_thread_fence(memory_order_release) between its two stores; the
// result compiles and is verified.
func TestStoreFences(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "benchmarks", "c", "mp.c"))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	r := Reader{}
	sys, err := r.Parse("mp.c", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := cegar.Options{Model: memmodel.PSO, StoreFences: true}
	res, patched, err := cegar.Insert(ctx, sys, sol, opt)
	if err != nil || res.Verdict != cegar.Correct || len(res.Fences) != 1 || res.Fences[0].Kind != cs.StoreFence {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.Contains(string(patched), "  data = 1;\n  atomic_thread_fence(memory_order_release);\n  ready = 1;") {
		t.Errorf("patched:\n%s", patched)
	}
	verifyPatched(ctx, t, r, "mp.c", patched, sol, memmodel.PSO)
}

// verifyPatched: a C file that insert patched compiles (gcc -std=gnu11
// -pthread -c), reads back with r and is verified correct under m.
func verifyPatched(ctx context.Context, t *testing.T, r Reader, name string, patched []byte, sol cegar.Solver, m memmodel.Model) {
	t.Helper()
	compile(t, patched)
	psys, err := r.Parse(name, patched)
	if err != nil {
		t.Fatalf("the patched file does not read: %v", err)
	}
	if v, err := cegar.Verify(ctx, psys, sol, cegar.Options{Model: m}); err != nil || v.Verdict != cegar.Correct {
		t.Fatalf("the patched file is %v under %s (%v)", v.Verdict, m, err)
	}
}
