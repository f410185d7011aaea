package domains

import (
	"reflect"
	"sort"
	"testing"

	"fencer/cs"
	"fencer/kabs"
	"fencer/memmodel"
)

func parse(t *testing.T, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// The variables of a value chain through shared memory (x0 = r1 + 1 after
// r1 = x0) are unbounded for the static analysis, which is flow-insensitive
// on shared variables. When the chain runs in loops bounded by counters
// they are dynamic; when it runs in a loop without bound, or depends on a
// havoc or a nondeterministic initial value, they are not.
func TestAnalyzeDynamic(t *testing.T) {
	in := Analyze(parse(t, `
shared x0, x1, w, h = *, g, sink;
process P0 {
  local r1, c0, c1, r0, hv, s;
l1:
  r1 = x0;
  c0 = c0 + 1;
  if (c0 < 1) goto l1;
  atomic { r1 = x0; x1 = r1 + 1; }
  while (r0 == 0 && c1 < 2) { c1 = c1 + 1; r1 = x1; x0 = r1 + 2; }
  if (r1 == 7) { skip; }
  sink = r1 + 1;
  hv = *;
  g = hv + r1;
  s = h;
  assume(s != g);
}
process W {
  local v;
  while (true) { v = v + 1; w = v; }
}
process N {
  local a, b;
  while (a < 2) { a = a + 1; l: b = b + 1; if (b < 2) goto l; }
}
`))
	for _, v := range []string{"x0", "x1", "P0.r1"} {
		if !in.Dynamic(v) || !in.Finite(v) || !reflect.DeepEqual(in.Values(v), []int64{0}) {
			t.Errorf("%s: dynamic %v, finite %v, values %v; want dynamic with candidate domain [0]", v, in.Dynamic(v), in.Finite(v), in.Values(v))
		}
	}
	// c1 is bounded by its conjunct of the loop guard (r0 is not static).
	if got := in.Values("P0.c1"); in.Dynamic("P0.c1") || !reflect.DeepEqual(got, []int64{0, 1, 2}) {
		t.Errorf("P0.c1: %v (dynamic %v), want static [0 1 2]", got, in.Dynamic("P0.c1"))
	}
	// A counter in a loop without bound, what is computed from a havoc or
	// a nondeterministic initial value, and what no guard depends on (sink
	// is written, never read): unbounded.
	for _, v := range []string{"W.v", "w", "P0.hv", "g", "h", "P0.s", "sink"} {
		if in.Finite(v) {
			t.Errorf("%s is explicit (dynamic %v, values %v)", v, in.Dynamic(v), in.Values(v))
		}
	}
	if in.AllFinite() {
		t.Error("AllFinite with a havoc")
	}
	// The inner counter b is not reset by the outer loop: the static
	// analysis, which has no relation between a and b, cannot bound it;
	// the skeleton of N, which tracks both, has no cycle.
	if !in.Dynamic("N.b") {
		t.Errorf("N.b: dynamic %v, values %v; want dynamic", in.Dynamic("N.b"), in.Values("N.b"))
	}
	if in.NumDynamic() != 4 {
		t.Errorf("%d dynamic variables, want 4", in.NumDynamic())
	}
}

// exploreValues runs the explicit part of the k-abstraction of sys (every
// variable explicit) to the end and returns the values x had in memory and
// those UPDATE-AM flushes gave it.
func exploreValues(t *testing.T, lay *Layout, abs *kabs.Abs, x string) (inMem, byAM []int64) {
	t.Helper()
	xi, _ := lay.Index(x)
	mem, am := map[int64]bool{}, map[int64]bool{}
	walkExplicit(t, lay, abs, func(vals []int64) { mem[vals[xi]] = true }, func(_ []int64, succ kabs.Succ, _ *Step, next [][]int64) {
		if succ.Step.Rule == kabs.RuleUpdateAM {
			for _, n := range next {
				am[n[xi]] = true
			}
		}
	})
	return sorted(mem), sorted(am)
}

// walkExplicit runs the explicit part of the k-abstraction of abs (every
// variable explicit) to the end, breadth first: it calls state with each
// state's values, and visit with them for each step from it, the step
// compiled and the successors Apply gives (neither may keep vals or
// next).
func walkExplicit(t *testing.T, lay *Layout, abs *kabs.Abs, state func(vals []int64), visit func(vals []int64, succ kabs.Succ, step *Step, next [][]int64)) {
	t.Helper()
	type st struct {
		c    *kabs.Ctl
		vals []int64
	}
	c0 := abs.Init()
	v0 := lay.Init(c0)
	seen := map[string]bool{c0.Key() + Key(v0): true}
	queue := []st{{c0, v0}}
	scratch := make([]int64, lay.Len())
	var next [][]int64
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if !lay.Observe(lay.DynPositions(s.c), s.vals) {
			t.Fatal("a domain passed the size cap")
		}
		state(s.vals)
		for _, succ := range abs.Successors(s.c) {
			step, err := lay.Compile(lay.Explicit(s.c), lay.Explicit(succ.Ctl), succ.T, succ.Step)
			if err != nil {
				t.Fatal(err)
			}
			if step.GuardSymbolic || step.AssignsSymbolic {
				t.Fatalf("step %v is not explicit", succ.Step)
			}
			next = next[:0]
			err = step.Apply(s.vals, lay.Zero(succ.Ctl), scratch, func(n []int64) bool {
				n = append([]int64(nil), n...)
				next = append(next, n)
				if k := succ.Ctl.Key() + Key(n); !seen[k] {
					seen[k] = true
					queue = append(queue, st{succ.Ctl, n})
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			visit(s.vals, succ, step, next)
		}
	}
}

func sorted(s map[int64]bool) []int64 {
	var out []int64
	for v := range s {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Under TSO with k = 1, P's second and third writes go to the abstract
// tail. A flush of a tail write that is not the last (UPDATE-AM) gives x
// one of the values P wrote there, from its tail set: x never holds a value
// nobody wrote (branching over x's domain would give it 0, 1 or 2, and in
// a loop feed the values of one run into the next). The first exploration, with the candidate domain {0}, has
// no bit for the tail writes: it is void and Absorb asks for another one,
// which is clean.
func TestTailSet(t *testing.T) {
	sys := parse(t, `
shared x, y;
process P { local r; r = x; y = 1; x = r + 3; x = r + 5; }
process Q { local s; s = y; x = s + 1; }
process R { local t; t = x; assume(t != 9); }
`)
	in := Analyze(sys)
	if !in.Dynamic("x") || !in.AllFinite() {
		t.Fatalf("x dynamic %v, all explicit %v", in.Dynamic("x"), in.AllFinite())
	}
	abs, err := kabs.NewAbs(sys, memmodel.TSO, 1)
	if err != nil {
		t.Fatal(err)
	}
	lay := NewLayout(in, abs)
	exploreValues(t, lay, abs, "x")
	again, what, err := in.Absorb(lay)
	if err != nil || !again {
		t.Fatalf("first exploration: again %v (%s), err %v; want a miss", again, what, err)
	}
	var rounds int
	var mem, am []int64
	for again {
		if rounds++; rounds > 5 {
			t.Fatal("the domains do not settle")
		}
		lay = NewLayout(in, abs)
		mem, am = exploreValues(t, lay, abs, "x")
		if again, what, err = in.Absorb(lay); err != nil {
			t.Fatal(err)
		}
	}
	// x: 0; Q writes 1 or 2; P reads 0 or 1 (Q sees y = 1 only after P's
	// read) and writes 3 or 4, then 5 or 6.
	want := []int64{0, 1, 2, 3, 4, 5, 6}
	if !reflect.DeepEqual(mem, want) {
		t.Errorf("x in memory: %v, want %v", mem, want)
	}
	// P's tail holds x = r + 3 and x = r + 5 (y = 1 takes the one exact
	// slot); UPDATE-AM flushes one of them.
	if want := []int64{3, 4, 5, 6}; !reflect.DeepEqual(am, want) {
		t.Errorf("x after UPDATE-AM: %v, want %v", am, want)
	}
	if !reflect.DeepEqual(in.Values("x"), want) {
		t.Errorf("domain of x: %v, want %v", in.Values("x"), want)
	}
}

// A dynamic variable that grows past MaxValues is made unbounded, and so
// is every variable computed from it.
func TestAbsorbFull(t *testing.T) {
	sys := parse(t, `
shared x, y;
process P { local r, c; while (c < 3) { c = c + 1; r = x; x = r + 1; } y = r; }
process Q { local s; s = y; assume(s < 100); }
`)
	in := Analyze(sys)
	if !in.Dynamic("x") || !in.Dynamic("y") {
		t.Fatalf("x dynamic %v, y dynamic %v", in.Dynamic("x"), in.Dynamic("y"))
	}
	abs, err := kabs.NewAbs(sys, memmodel.SC, 0)
	if err != nil {
		t.Fatal(err)
	}
	lay := NewLayout(in, abs)
	xi, _ := lay.Index("x")
	v := make([]int64, lay.Len())
	dps := []DynPos{{Pos: xi, Var: lay.dynIdx("x")}}
	full := false
	for i := int64(1); i <= MaxValues && !full; i++ {
		v[xi] = i
		full = !lay.Observe(dps, v)
	}
	if !full {
		t.Fatal("Observe accepted more than MaxValues values")
	}
	again, what, err := in.Absorb(lay)
	if err != nil || !again {
		t.Fatalf("again %v, err %v", again, err)
	}
	for _, v := range []string{"x", "y", "P.r", "Q.s"} {
		if in.Finite(v) {
			t.Errorf("%s still explicit after %s", v, what)
		}
	}
}
