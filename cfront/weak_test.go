package cfront

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"fencer/cs"
	"fencer/execgraph"
	"fencer/memmodel"
	"fencer/weakfix"
)

// weakTargets are the targets of the axiomatic models and their models.
var weakTargets = []struct {
	t Target
	m memmodel.Model
}{{TargetARM, memmodel.ARM}, {TargetRISCV, memmodel.RISCV}, {TargetRMO, memmodel.RMO}}

// memOps lists the memory operations of each process of sys in edge
// order, one process a line: reads, writes, fences and atomic steps with
// their annotations ("r1 := read acquire flag | fence load").
func memOps(sys *cs.System) string {
	var b strings.Builder
	for _, p := range sys.Procs {
		var ops []string
		for _, e := range p.Edges {
			switch e.Op.Kind {
			case cs.OpRead, cs.OpWrite, cs.OpFence:
				ops = append(ops, e.Op.String())
			case cs.OpAtomic:
				s := e.Op.String()
				if strings.Contains(s, "_go") || strings.Contains(s, "_done") {
					continue // the steps that start and join threads
				}
				if a := e.Op.Ann; a != 0 {
					s += " " + a.String()
				} else {
					s += " relaxed"
				}
				ops = append(ops, s)
			}
		}
		fmt.Fprintf(&b, "%s: %s\n", p.Name, strings.Join(ops, " | "))
	}
	return b.String()
}

// TestWeakMapping: the memory operations of each file of testdata/weak
// read under the default target and each weak one (the golden file), and
// the table of C-INPUT.md spelt out for message passing with release and
// acquire and store buffering with seq_cst.
func TestWeakMapping(t *testing.T) {
	for _, path := range files(t, "weak") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var b bytes.Buffer
			for _, tg := range append([]Target{TargetDefault}, Targets...) {
				sys, _, err := parseFile(t, Reader{Target: tg}, path)
				if err != nil {
					t.Fatal(err)
				}
				name := string(tg)
				if name == "" {
					name = "default"
				}
				fmt.Fprintf(&b, "== %s\n%s", name, memOps(sys))
			}
			golden(t, path, b.Bytes())
		})
	}
	want := map[string]map[Target]string{
		"mp_relacq.c": {
			TargetARM: "writer: write data := 1 | write release flag := 1\n" +
				"reader: r1 := read acquire flag | r2 := read data\n",
			TargetRISCV: "writer: write data := 1 | fence release | write flag := 1\n" +
				"reader: r1 := read flag | fence load | r2 := read data\n",
			TargetRMO: "writer: write data := 1 | fence release | write flag := 1\n" +
				"reader: r1 := read flag | fence load | r2 := read data\n",
		},
		"sb_seqcst.c": {
			TargetARM: "main: $0 := read r0 | $0 := read r1\n" +
				"t0: write release x := 1 | _ld := read acquire y | write r0 := _ld\n" +
				"t1: write release y := 1 | _ld := read acquire y | write r1 := _ld\n",
			TargetRISCV: "main: $0 := read r0 | $0 := read r1\n" +
				"t0: fence release | write x := 1 | fence | fence | _ld := read y | fence load | write r0 := _ld\n" +
				"t1: fence release | write y := 1 | fence | fence | _ld := read y | fence load | write r1 := _ld\n",
			TargetRMO: "main: $0 := read r0 | $0 := read r1\n" +
				"t0: fence release | write x := 1 | fence storeload | fence storeload | _ld := read y | fence load | write r0 := _ld\n" +
				"t1: fence release | write y := 1 | fence storeload | fence storeload | _ld := read y | fence load | write r1 := _ld\n",
		},
	}
	for file, byTarget := range want {
		for tg, ops := range byTarget {
			sys, _, err := parseFile(t, Reader{Target: tg}, filepath.Join("testdata", "weak", file))
			if err != nil {
				t.Fatal(err)
			}
			if got := memOps(sys); got != ops {
				t.Errorf("%s under %s:\n%s\nwant\n%s", file, tg, got, ops)
			}
		}
	}
}

var weakExpectRE = regexp.MustCompile(`(?m)^// fencer: expect (arm|riscv|rmo) (safe|fences=\d+)$`)

// TestWeakInsert: each file of testdata/weak under each weak model, as
// fencer insert runs it: the explorer's verdict; the cheapest changes
// among those the reader can write (CanFence, CanRaise), as many as the
// file's "// fencer: expect" line says; the file with the changes written
// (EditChanges, a style per run) compiles with gcc (assembly only for the
// asm style: the instructions are the target's), reads back with no bad
// execution, and needs no more changes. The lock (a minute) runs only
// under FENCER_SOAK (make soak).
func TestWeakInsert(t *testing.T) {
	styles := []Style{StyleC11, StyleGCC, StyleAsm}
	n := 0
	for _, path := range files(t, "weak") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		exps := map[string]string{}
		for _, m := range weakExpectRE.FindAllStringSubmatch(string(src), -1) {
			exps[m[1]] = m[2]
		}
		if len(exps) == 0 {
			continue // a file for the mapping only
		}
		for _, w := range weakTargets {
			style := styles[n%len(styles)]
			n++
			t.Run(filepath.Base(path)+"/"+string(w.t)+"/"+string(style), func(t *testing.T) {
				if os.Getenv("FENCER_SOAK") == "" && strings.HasSuffix(path, "cas_lock.c") {
					t.Skip("a minute: make soak runs it (FENCER_SOAK)")
				}
				exp, ok := exps[string(w.t)]
				if !ok {
					t.Fatalf("no // fencer: expect %s line", w.t)
				}
				want := 0
				if exp != "safe" {
					want, _ = strconv.Atoi(strings.TrimPrefix(exp, "fences="))
				}
				r := Reader{Target: w.t, Style: style}
				name := filepath.Base(path)
				sys, err := r.Parse(name, src)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				res, err := execgraph.Explore(ctx, sys, w.m, execgraph.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if bad := res.Verdict == execgraph.Bad; bad != (want > 0) || res.Verdict == execgraph.SCBug || res.Verdict == execgraph.Unknown {
					t.Fatalf("the explorer says %v (%s), want %s", res.Verdict, res.Reason, exp)
				}
				changes := insertWeak(ctx, t, r, sys, w.m)
				if len(changes) != want {
					t.Fatalf("%d changes, want %d", len(changes), want)
				}
				if want == 0 {
					return
				}
				patched, err := r.EditChanges(src, changes)
				if err != nil {
					t.Fatal(err)
				}
				compileAs(t, patched, style == StyleAsm)
				psys, err := r.Parse(name, patched)
				if err != nil {
					t.Fatalf("the patched file does not read: %v\n%s", err, patched)
				}
				res, err = execgraph.Explore(ctx, psys, w.m, execgraph.Options{})
				if err != nil || res.Verdict != execgraph.NoBad {
					t.Fatalf("the patched file: %v %v\n%s", res.Verdict, err, patched)
				}
				if more := insertWeak(ctx, t, r, psys, w.m); len(more) != 0 {
					t.Errorf("the patched file needs %d more changes\n%s", len(more), patched)
				}
			})
		}
	}
}

// insertWeak runs weakfix with what r can write.
func insertWeak(ctx context.Context, t *testing.T, r Reader, sys *cs.System, m memmodel.Model) []cs.Change {
	t.Helper()
	res, err := weakfix.Insert(ctx, sys, m, weakfix.Options{
		CanRaise: func(p, e int) bool { return r.CanRaise(sys, p, e) },
		CanFence: func(s int) bool { return r.CanFence(sys, s) },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != weakfix.Correct {
		t.Fatalf("insert: %v (%s)", res.Verdict, res.Reason)
	}
	var out []cs.Change
	for _, c := range res.Changes {
		out = append(out, c.Change)
	}
	return out
}

// compileAs compiles a C file with gcc -std=gnu11 -pthread, to an object
// file, or only to assembly when asm holds (an asm statement of another
// architecture than the host's).
func compileAs(t *testing.T, src []byte, asm bool) {
	t.Helper()
	if !asm {
		compile(t, src)
		return
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "patched.c")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gcc, "-std=gnu11", "-pthread", "-Wall", "-Werror=implicit-function-declaration", "-S", in, "-o", filepath.Join(dir, "patched.s")).CombinedOutput()
	if err != nil {
		t.Fatalf("gcc: %v\n%s\n%s", err, out, src)
	}
}

// TestWeakEditEverywhere: every C file of the benchmarks and of testdata
// reads under each weak target (but the one with an x86 asm fence, which
// is refused), and with a barrier of some kind at every site the reader
// can write and every order it can raise raised, compiles and reads back
// with one more fence per site, and the raised accesses annotated (arm)
// or with barriers (riscv, rmo).
func TestWeakEditEverywhere(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "benchmarks", "c", "*.c"))
	for _, dir := range []string{"semantics", "patch", "positions", "reconsider", "warnings", "weak"} {
		paths = append(paths, files(t, dir)...)
	}
	kinds := []cs.FenceKind{cs.LoadFence, cs.FullFence, cs.StoreFence, cs.ReleaseFence, cs.TSOFence, cs.MaskFence(cs.StoreLoad)}
	styles := []Style{StyleC11, StyleGCC, StyleAsm}
	for i, path := range paths {
		for _, w := range weakTargets {
			style := styles[i%len(styles)]
			t.Run(filepath.Base(path)+"/"+string(w.t)+"/"+string(style), func(t *testing.T) {
				r := Reader{Target: w.t, Style: style}
				sys, src, err := parseFile(t, r, path)
				if strings.HasSuffix(path, "fenced.c") {
					if err == nil || !strings.Contains(err.Error(), `unsupported: asm "mfence", which is not a barrier of`) {
						t.Fatalf("an x86 fence read for %s: %v", w.t, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				var changes []cs.Change
				for _, s := range sys.Sites {
					if r.CanFence(sys, s.ID) {
						changes = append(changes, cs.Change{Site: s, Kind: kinds[len(changes)%len(kinds)]})
					}
				}
				sites := len(changes)
				if sites == 0 {
					t.Fatal("no site")
				}
				raised := map[cs.Pos]cs.Ann{}
				for p, proc := range sys.Procs {
					for e, ed := range proc.Edges {
						if r.CanRaise(sys, p, e) {
							ann := cs.Acquire
							if ed.Op.Kind == cs.OpWrite {
								ann = cs.Release
							}
							raised[ed.Pos] = ann
							changes = append(changes, cs.Change{Proc: p, Edge: e, Pos: ed.Pos, Ann: ann})
						}
					}
				}
				patched, err := r.EditChanges(src, changes)
				if err != nil {
					t.Fatal(err)
				}
				compileAs(t, patched, style == StyleAsm)
				psys, err := r.Parse(filepath.Base(path), patched)
				if err != nil {
					t.Fatalf("the patched file does not read: %v\n%s", err, patched)
				}
				want := fenceStmts(sys) + sites
				if w.t != TargetARM {
					// A raised access has the barriers of its new
					// order (fence r,rw after an acquire load).
					want += len(raised)
				}
				if got := fenceStmts(psys); got != want {
					t.Errorf("%d fence statements read back, want %d\n%s", got, want, patched)
				}
				if w.t == TargetARM {
					if got, want := annotated(psys), annotated(sys)+len(raised); got != want {
						t.Errorf("%d annotated accesses read back, want %d\n%s", got, want, patched)
					}
				}
			})
		}
	}
}

// fenceStmts counts the fence statements of a system's program text:
// the distinct positions of its fence edges.
func fenceStmts(sys *cs.System) int {
	seen := map[cs.Pos]bool{}
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			if e.Op.Kind == cs.OpFence {
				seen[e.Pos] = true
			}
		}
	}
	return len(seen)
}

// annotated counts the distinct positions of annotated reads and writes.
func annotated(sys *cs.System) int {
	seen := map[cs.Pos]bool{}
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			if (e.Op.Kind == cs.OpRead || e.Op.Kind == cs.OpWrite) && e.Op.Ann != 0 {
				seen[e.Pos] = true
			}
		}
	}
	return len(seen)
}

// weakSrc is a small program for the edit tests: relaxed, plain,
// _Atomic and GCC builtin accesses, a body with braces and one without,
// a macro.
const weakSrc = `#include <pthread.h>
#include <stdatomic.h>

#define LOAD(v) atomic_load_explicit(&v, memory_order_relaxed)

atomic_int x, z;
volatile int y;
int w;

void *t0(void *arg) {
  (void)arg;
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  y = 1;
  __atomic_store_n(&w, 1, __ATOMIC_RELAXED);
  return NULL;
}

void *t1(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&x, memory_order_relaxed) == 1) {
    int r = y;
    (void)r;
  }
  if (z == 1)
    y = 2;
  int s = LOAD(z) + __atomic_load_n(&w, __ATOMIC_RELAXED);
  (void)s;
  atomic_fetch_add_explicit(&z, 1, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t0, NULL);
  pthread_create(&b, NULL, t1, NULL);
  return 0;
}
`

// siteOf finds the writable site at the C statement that begins with
// text, on side place.
func siteOf(t *testing.T, r Reader, sys *cs.System, text string, place cs.Place) *cs.Site {
	t.Helper()
	for _, s := range sys.Sites {
		if strings.HasPrefix(s.Text, text) && s.Place == place && r.CanFence(sys, s.ID) {
			return s
		}
	}
	t.Fatalf("no site %d at %q", place, text)
	return nil
}

// accessAt finds the edge of the access of the variable shared whose
// position is the first occurrence of text in src at or after the first
// occurrence of after.
func accessAt(t *testing.T, sys *cs.System, after, text string, kind cs.OpKind) cs.Change {
	t.Helper()
	src := string(sys.File.Src)
	i := strings.Index(src, after)
	j := strings.Index(src[i:], text)
	if i < 0 || j < 0 {
		t.Fatalf("no %q after %q", text, after)
	}
	pos := cs.PosAt(i + j)
	for p, proc := range sys.Procs {
		for e, ed := range proc.Edges {
			if ed.Pos == pos && ed.Op.Kind == kind {
				ann := cs.Acquire
				if kind == cs.OpWrite {
					ann = cs.Release
				}
				return cs.Change{Proc: p, Edge: e, Pos: pos, Ann: ann}
			}
		}
	}
	t.Fatalf("no %v edge at %q", kind, text)
	return cs.Change{}
}

// TestWeakEdits: how EditChanges writes barriers before and after
// statements, with and without braces, in each style, and raises orders,
// and what it refuses.
func TestWeakEdits(t *testing.T) {
	src := []byte(weakSrc)
	r := Reader{Target: TargetARM}
	sys, err := r.Parse("edits.c", src)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(r Reader, changes ...cs.Change) string {
		t.Helper()
		out, err := r.EditChanges(src, changes)
		if err != nil {
			t.Fatal(err)
		}
		compileAs(t, out, r.Style == StyleAsm)
		if _, err := r.Parse("edits.c", out); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return string(out)
	}
	contains := func(out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("no %q in\n%s", w, out)
			}
		}
	}
	inBody := siteOf(t, r, sys, "int r = y;", cs.Before)
	bare := siteOf(t, r, sys, "y = 2;", cs.Before)
	bareAfter := siteOf(t, r, sys, "y = 2;", cs.After)
	store := siteOf(t, r, sys, "atomic_store_explicit(&x", cs.After)

	// Before the first statement of a body: a line above it; in a body
	// without braces, new braces around both barriers.
	out := edit(r, cs.Change{Site: inBody, Kind: cs.LoadFence}, cs.Change{Site: bare, Kind: cs.LoadFence},
		cs.Change{Site: bareAfter, Kind: cs.StoreFence}, cs.Change{Site: store, Kind: cs.FullFence})
	contains(out, "== 1) {\n    atomic_thread_fence(memory_order_acquire);\n    int r = y;\n",
		"if (z == 1)\n    { atomic_thread_fence(memory_order_acquire); y = 2; atomic_thread_fence(memory_order_release); }\n",
		"memory_order_relaxed);\n  atomic_thread_fence(memory_order_seq_cst);\n  y = 1;")

	// Barriers at one point are one statement that orders what both do.
	out = edit(r, cs.Change{Site: store, Kind: cs.LoadFence, Instr: "dmb ishld"}, cs.Change{Site: store, Kind: cs.StoreFence, Instr: "dmb ishst"})
	contains(out, "atomic_thread_fence(memory_order_acq_rel);")
	out = edit(Reader{Target: TargetARM, Style: StyleAsm}, cs.Change{Site: store, Kind: cs.LoadFence, Instr: "dmb ishld"}, cs.Change{Site: store, Kind: cs.StoreFence, Instr: "dmb ishst"})
	contains(out, `asm volatile("dmb ish" ::: "memory");`)
	out = edit(Reader{Target: TargetARM, Style: StyleAsm}, cs.Change{Site: store, Kind: cs.LoadFence, Instr: "dmb ishld"})
	contains(out, `asm volatile("dmb ishld" ::: "memory");`)
	out = edit(Reader{Target: TargetARM, Style: StyleGCC}, cs.Change{Site: store, Kind: cs.LoadFence}, cs.Change{Site: bareAfter, Kind: cs.FullFence})
	contains(out, "__atomic_thread_fence(__ATOMIC_ACQUIRE);", "y = 2; __sync_synchronize(); }")

	// Order raises: the relaxed atomic calls, C11's and GCC's.
	out = edit(r, accessAt(t, sys, "void *t0", "atomic_store_explicit(&x", cs.OpWrite),
		accessAt(t, sys, "void *t0", "__atomic_store_n", cs.OpWrite),
		accessAt(t, sys, "void *t1", "x, memory_order_relaxed) == 1", cs.OpRead),
		accessAt(t, sys, "int s =", "w, __ATOMIC_RELAXED", cs.OpRead))
	contains(out, "atomic_store_explicit(&x, 1, memory_order_release);", "__atomic_store_n(&w, 1, __ATOMIC_RELEASE);",
		"if (atomic_load_explicit(&x, memory_order_acquire) == 1)", "__atomic_load_n(&w, __ATOMIC_ACQUIRE);")

	// What cannot be raised: a volatile variable, an _Atomic one read
	// plainly (seq_cst already), an access a macro writes.
	for _, c := range []struct {
		ch   cs.Change
		want string
	}{
		{accessAt(t, sys, "void *t0", "y = 1", cs.OpWrite), "y is not _Atomic"},
		{accessAt(t, sys, "int r = y", "y", cs.OpRead), "y is not _Atomic"},
		{accessAt(t, sys, "if (z == 1)", "z", cs.OpRead), "already memory_order_seq_cst"},
		{cs.Change{Pos: accessAt(t, sys, "void *t0", "y = 1", cs.OpWrite).Pos, Ann: cs.Acquire}, "no read"},
	} {
		if _, err := r.EditChanges(src, []cs.Change{c.ch}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("raise at %v: %v, want an error with %q", sys.Position(c.ch.Pos), err, c.want)
		}
		if r.CanRaise(sys, c.ch.Proc, c.ch.Edge) && c.want != "no read" {
			t.Errorf("CanRaise at %v", sys.Position(c.ch.Pos))
		}
	}
	macro := strings.Index(weakSrc, "LOAD(z)")
	for p, proc := range sys.Procs {
		for e, ed := range proc.Edges {
			if ed.Pos.Offset() == macro && r.CanRaise(sys, p, e) {
				t.Errorf("CanRaise of an access a macro writes")
			}
		}
	}

	// The default target writes full and store fences only, after
	// writes, and no raise.
	def := Reader{}
	dsys, err := def.Parse("edits.c", src)
	if err != nil {
		t.Fatal(err)
	}
	var write *cs.Site
	for _, s := range dsys.WriteSites() {
		write = s
		break
	}
	want, _ := def.EditFences(src, []*cs.Site{write}, nil, nil)
	if got, err := def.EditChanges(src, []cs.Change{{Site: write, Kind: cs.FullFence}}); err != nil || string(got) != string(want) {
		t.Errorf("default target: %v\n%s\nwant\n%s", err, got, want)
	}
	if _, err := def.EditChanges(src, []cs.Change{{Site: write, Kind: cs.LoadFence}}); err == nil {
		t.Error("a load fence under the default target")
	}
	if _, err := def.EditChanges(src, []cs.Change{{Pos: write.Pos(), Ann: cs.Release}}); err == nil {
		t.Error("a raise under the default target")
	}
}

// TestWeakBarrierText: the statement of each barrier the models offer
// reads back, in every style, as a barrier that orders at least what it
// must; and the C11 fence of each kind is the weakest that does.
func TestWeakBarrierText(t *testing.T) {
	src := []byte("#include <pthread.h>\nvolatile int x;\nvoid *f(void *a) { (void)a;\n  x = 1;\n  return 0; }\n" +
		"int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); return 0; }\n")
	for _, w := range weakTargets {
		for _, style := range Styles {
			r := Reader{Target: w.t, Style: style}
			sys, err := r.Parse("fence.c", src)
			if err != nil {
				t.Fatal(err)
			}
			site := siteOf(t, r, sys, "x = 1;", cs.After)
			var kinds []cs.FenceKind
			for _, b := range w.m.Barriers() {
				kinds = append(kinds, b.Kind)
			}
			for o := cs.Ordering(1); o <= cs.AllOrders; o++ {
				kinds = append(kinds, cs.MaskFence(o))
			}
			for i, k := range kinds {
				instr := ""
				if i < len(w.m.Barriers()) {
					instr = w.m.Barriers()[i].Name
				}
				out, err := r.EditChanges(src, []cs.Change{{Site: site, Kind: k, Instr: instr}})
				if err != nil {
					t.Fatal(err)
				}
				psys, err := r.Parse("fence.c", out)
				if err != nil {
					t.Fatalf("%s %s %v: %v\n%s", w.t, style, k, err, out)
				}
				var got []cs.FenceKind
				for _, e := range psys.Procs[0].Edges {
					if e.Op.Kind == cs.OpFence {
						got = append(got, e.Op.Fence)
					}
				}
				if len(got) != 1 || !got[0].Covers(k) {
					t.Errorf("%s %s: %v (%q) reads back as %v\n%s", w.t, style, k, instr, got, out)
				}
			}
		}
	}
	for k, want := range map[cs.FenceKind]string{
		cs.LoadFence: "acquire", cs.FullFence: "seq_cst", cs.StoreFence: "release", cs.ReleaseFence: "release",
		cs.TSOFence: "acq_rel", cs.MaskFence(cs.StoreLoad): "seq_cst", cs.MaskFence(cs.LoadLoad): "acquire",
		cs.MaskFence(cs.LoadLoad | cs.StoreStore): "acq_rel",
	} {
		if got := (Reader{Target: TargetARM}).fenceText(k, ""); got != "atomic_thread_fence(memory_order_"+want+");" {
			t.Errorf("%v: %s, want memory_order_%s", k, got, want)
		}
	}
}

// TestWeakCrossCompile: on AArch64, as GCC compiles them, the patched
// message passing has LDAR and STLR, and an acquire fence is DMB ISHLD
// (when aarch64-linux-gnu-gcc and objdump are installed).
func TestWeakCrossCompile(t *testing.T) {
	gcc, err := exec.LookPath("aarch64-linux-gnu-gcc")
	if err != nil {
		t.Skip("no aarch64-linux-gnu-gcc")
	}
	objdump, err := exec.LookPath("aarch64-linux-gnu-objdump")
	if err != nil {
		if objdump, err = exec.LookPath("objdump"); err != nil {
			t.Skip("no objdump")
		}
	}
	path := filepath.Join("testdata", "weak", "mp_relaxed.c")
	r := Reader{Target: TargetARM}
	sys, src, err := parseFile(t, r, path)
	if err != nil {
		t.Fatal(err)
	}
	raised := []cs.Change{
		accessAt(t, sys, "void *writer", "atomic_store_explicit(&flag", cs.OpWrite),
		accessAt(t, sys, "void *reader", "flag, memory_order_relaxed", cs.OpRead),
		{Site: siteOf(t, r, sys, "int r1 =", cs.After), Kind: cs.LoadFence},
	}
	patched, err := r.EditChanges(src, raised)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, obj := filepath.Join(dir, "mp.c"), filepath.Join(dir, "mp.o")
	if err := os.WriteFile(in, patched, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-std=gnu11", "-pthread", "-O2", "-c", in, "-o", obj).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err := exec.Command(objdump, "-d", obj).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, insn := range []string{"ldar", "stlr", "dmb\tishld"} {
		if !strings.Contains(string(out), insn) {
			t.Errorf("no %s in\n%s", insn, out)
		}
	}
}
