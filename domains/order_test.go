package domains

import (
	"errors"
	"testing"

	"fencer/cs"
	"fencer/kabs"
	"fencer/memmodel"
)

func parseSys(t *testing.T, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// The ticket lock's counters are unbounded; the order view makes them
// explicit, every variable with them; a view built for SC is dropped by a
// layout with buffers.
func TestOrderViewTicket(t *testing.T) {
	src := `
shared next, owner;
process P[i in 0..1] {
  local t;
  while (true) {
    t = fetch_add(next, 1);
    while (owner != t) { }
cs: skip;
    owner = owner + 1;
  }
}
mutex cs;
`
	in := Analyze(parseSys(t, src))
	if in.AllFinite() || in.Finite("next") {
		t.Fatalf("the counters are finite without the view")
	}
	if !in.UseOrderView() || !in.AllFinite() || !in.Finite("owner") || in.Values("owner") != nil {
		t.Fatalf("the view does not make the counters explicit")
	}
	abs, err := kabs.NewAbs(in.sys, memmodel.TSO, 1)
	if err != nil {
		t.Fatal(err)
	}
	NewLayout(in, abs) // with buffers: the view is dropped for good
	if in.OrderView() || in.Finite("owner") || in.UseOrderView() {
		t.Fatalf("the view is still in use with buffers")
	}
}

// A counter compared with a havocked value is not counter-like: no view.
func TestOrderViewRefused(t *testing.T) {
	src := `
shared c;
process P { local r, h; while (true) { r = c; c = r + 1; h = *; if (r == h) { skip; } } }
`
	in := Analyze(parseSys(t, src))
	if in.UseOrderView() {
		t.Fatalf("view used with a havocked value in the class")
	}
}

// Steps are taken on canonical values and canonicalised; a move that is
// not exact is widened (with NoWiden it fails with ErrInexact, which is
// an ErrArithmetic).
func TestOrderViewSteps(t *testing.T) {
	src := `
shared a, b;
process P { local r; while (true) { r = a; a = r + 1; } }
process Q { local s; while (true) { s = b; b = s + 1; if (s == a) { skip; } } }
`
	in := Analyze(parseSys(t, src))
	if !in.UseOrderView() {
		t.Fatal("no view")
	}
	abs, err := kabs.NewAbs(in.sys, memmodel.SC, 0)
	if err != nil {
		t.Fatal(err)
	}
	lay := NewLayout(in, abs)
	if lay.ord == nil || len(lay.ord.classes) != 1 {
		t.Fatalf("want one class, got %+v", lay.ord)
	}
	cl := lay.ord.classes[0]
	ai, _ := lay.Index("a")
	bi, _ := lay.Index("b")
	// The step a := r + 1 of P from r = a = Hi + 1 (above the hull), b = 0:
	// exact, a becomes Hi + 2 (cut to Hi + Cap). With b a cut gap above r
	// (b = Hi + 1 + Cap, canonical for any b at least that far), the move
	// comes within Cap of b in some states only: not exact.
	ctls := []*kabs.Ctl{abs.Init()}
	for d := 0; d < len(ctls) && d < 200; d++ {
		c1 := ctls[d]
		for _, s2 := range abs.Successors(c1) {
			ctls = append(ctls, s2.Ctl)
			if s2.Step.Proc != 0 || len(s2.T.Assign) != 1 || s2.T.Assign[0].Var != "a" {
				continue
			}
			st, err := lay.Compile(lay.Explicit(c1), lay.Explicit(s2.Ctl), s2.T, s2.Step)
			if err != nil {
				t.Fatal(err)
			}
			ri, _ := lay.Index("P.r")
			run := func(b int64) ([]int64, error) {
				v := make([]int64, lay.Len())
				v[ai], v[ri], v[bi] = cl.Hi+1, cl.Hi+1, b
				var got []int64
				err := st.Apply(v, lay.Zero(s2.Ctl), make([]int64, len(v)), func(n []int64) bool {
					got = append([]int64(nil), n...)
					return true
				})
				return got, err
			}
			got, err := run(0)
			if err != nil || got[ai] != cl.Hi+min(2, cl.Cap) || got[bi] != 0 {
				t.Errorf("exact step: %v, %v (hull %d..%d cap %d)", got, err, cl.Lo, cl.Hi, cl.Cap)
			}
			far := cl.Hi + 1 + cl.Cap
			NoWiden = true
			_, err = run(far)
			NoWiden = false
			if !errors.Is(err, ErrInexact) || !errors.Is(err, ErrArithmetic) {
				t.Errorf("a move towards a value across a cut gap, not widened: %v, want ErrInexact", err)
			}
			if in.OrderWidened() {
				t.Errorf("widened before any step widened")
			}
			// Widened: one successor per width of the gap, Cap (b within
			// Cap - 1 of the new a) and Cap + 1 or more (b Cap away).
			var succ [][]int64
			err = st.Apply(func() []int64 {
				v := make([]int64, lay.Len())
				v[ai], v[ri], v[bi] = cl.Hi+1, cl.Hi+1, far
				return v
			}(), lay.Zero(s2.Ctl), make([]int64, lay.Len()), func(n []int64) bool {
				succ = append(succ, append([]int64(nil), n...))
				return true
			})
			if err != nil || len(succ) != 2 || !in.OrderWidened() {
				t.Fatalf("widened step: %v, %v, widened %v", succ, err, in.OrderWidened())
			}
			a := cl.Hi + min(2, cl.Cap)
			if succ[0][ai] != a || succ[0][bi] != a+cl.Cap-1 || succ[1][ai] != a || succ[1][bi] != a+cl.Cap {
				t.Errorf("widened successors %v (a at %d, b at %d), want b at a+Cap-1 and a+Cap (cap %d)", succ, ai, bi, cl.Cap)
			}
			return
		}
	}
	t.Fatal("no step of P found")
}

// Under TSO the view keeps, for a class variable in p's abstract tail, the
// set of values p wrote there (T_{p,x} as class positions): an UPDATE-AM
// gives x each of them, canonicalised, and UPDATE-AS the last. Here P
// writes 1 (an exact slot at k = 1), then 3 and 2 (into the tail): some
// reachable state flushes from the tail {2, 3} and gives x both values.
func TestOrderViewTail(t *testing.T) {
	src := `
shared x;
process P { local r; r = x; x = r + 1; x = r + 3; x = r + 2; }
process Q { local s; s = x; if (s < 1) { skip; } }
`
	OrderViewAlways = true
	defer func() { OrderViewAlways = false }()
	in := Analyze(parseSys(t, src))
	if !in.UseOrderViewWith(memmodel.TSO.Layout()) {
		t.Fatal("no view")
	}
	abs, err := kabs.NewAbs(in.sys, memmodel.TSO, 1)
	if err != nil {
		t.Fatal(err)
	}
	lay := NewLayout(in, abs)
	if !in.OrderView() || lay.ord == nil {
		t.Fatal("the view was dropped under TSO")
	}
	xi, _ := lay.Index("x")
	type node struct {
		c *kabs.Ctl
		v []int64
	}
	c0 := abs.Init()
	q := []node{{c0, lay.Init(c0)}}
	seen := map[string]bool{c0.Key() + Key(q[0].v): true}
	var both bool // one UPDATE-AM gave x both 2 and 3
	for len(q) > 0 {
		n := q[0]
		q = q[1:]
		for _, s := range abs.Successors(n.c) {
			st, err := lay.Compile(lay.Explicit(n.c), lay.Explicit(s.Ctl), s.T, s.Step)
			if err != nil {
				t.Fatal(err)
			}
			amValues := map[int64]bool{}
			err = st.Apply(n.v, lay.Zero(s.Ctl), make([]int64, len(n.v)), func(w []int64) bool {
				if s.Step.Rule == kabs.RuleUpdateAM {
					amValues[w[xi]] = true
				}
				k := s.Ctl.Key() + Key(w)
				if !seen[k] {
					seen[k] = true
					q = append(q, node{s.Ctl, append([]int64(nil), w...)})
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(amValues) > 2 || len(amValues) > 0 && !amValues[2] && !amValues[3] {
				t.Errorf("an UPDATE-AM gave x the values %v, not in the tail", amValues)
			}
			both = both || amValues[2] && amValues[3]
		}
	}
	if lay.Missed() {
		t.Fatalf("a tail set of capacity %d was full", in.ord.tailCap)
	}
	if !both {
		t.Errorf("no UPDATE-AM from the tail {2, 3} gave x both values")
	}
}
