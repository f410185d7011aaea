package weakfix

import (
	"context"
	"fmt"
	"sort"

	"fencer/cs"
	"fencer/execgraph"
	"fencer/memmodel"
)

// Options are the explorer's bounds and what the format can write.
type Options struct {
	Explore execgraph.Options
	// CanRaise reports whether the access of process p's edge e may be
	// raised to an acquire (a read) or a release (a write) in the file;
	// nil: never.
	CanRaise func(p, e int) bool
	// CanFence reports whether a barrier may go at site s; nil: every site.
	CanFence func(s int) bool
	// MaxChanges bounds the size of the sets searched (0: 8).
	MaxChanges int
	// All, when above 1, asks for up to All-1 other sets of the same size,
	// each verified (Result.Alternatives).
	All int
	// Progress, if set, is called after each bad execution found.
	Progress func(found, changes int)
}

// Verdict of an insertion.
type Verdict uint8

const (
	Correct Verdict = iota // no bad execution with the changes (within the bound: Bounded)
	SCBug                  // a bad SC execution: no change helps
	Unknown                // a limit was hit: Reason
)

var verdictNames = [...]string{"correct", "sc-bug", "unknown"}

func (v Verdict) String() string { return verdictNames[v] }

// Change is one change of the answer.
type Change struct {
	cs.Change
	Cost int
	// Needed is a bad execution allowed without this change (the others
	// kept).
	Needed *execgraph.Witness
}

// Result is the answer.
type Result struct {
	Verdict Verdict
	Changes []Change
	Cost    int
	Bounded bool // some run was cut by the unroll bound
	Approx  bool // a nondeterministic value was drawn from a finite set
	Unroll  int
	Reason  string
	Witness *execgraph.Witness // SCBug: the SC execution
	Found   int                // bad executions found on the way
	Checks  int
	// Alternatives are other sets of as many changes, each verified,
	// cheapest first (Options.All).
	Alternatives [][]Change
}

// slot is a place for a change: a fence site, or a source access (all the
// processes' edges at one position: a template's instances change
// together).
type slot struct {
	site     int // -1 for an access
	accesses []execgraph.Access
	write    bool
	pos      cs.Pos
}

// Insert finds the cheapest changes that make sys correct under m.
func Insert(ctx context.Context, sys *cs.System, m memmodel.Model, opt Options, text func(cs.Pos) string) (*Result, error) {
	if opt.MaxChanges <= 0 {
		opt.MaxChanges = 8
	}
	ex, err := execgraph.New(ctx, sys, m, opt.Explore)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var known []*execgraph.Execution
	var cur execgraph.Changes
	var chosen []slotKind
	for {
		r, err := ex.Check(ctx, cur)
		if err != nil {
			return nil, err
		}
		res.Checks += r.Checks
		res.Bounded, res.Approx, res.Unroll = r.Bounded, r.Approx, r.Unroll
		switch r.Verdict {
		case execgraph.Unknown:
			res.Verdict, res.Reason = Unknown, r.Reason
			return res, nil
		case execgraph.SCBug:
			res.Verdict, res.Witness = SCBug, ex.Witness(r.Witness, text)
			return res, nil
		case execgraph.NoBad:
			res.Verdict = Correct
			res.Changes = describe(ctx, ex, sys, m, chosen, text)
			for _, c := range res.Changes {
				res.Cost += c.Cost
			}
			if opt.All > 1 {
				alts, err := alternatives(ctx, ex, m, known, candidates(sys, m, known, opt), chosen, opt.All-1)
				if err != nil {
					return nil, err
				}
				for _, set := range alts {
					res.Alternatives = append(res.Alternatives, describe(ctx, ex, sys, m, set, text))
				}
			}
			return res, nil
		}
		known = append(known, r.Witness)
		res.Found++
		slots := candidates(sys, m, known, opt)
		set, ok := newChooser(ex, m, known, slots).best(opt.MaxChanges)
		if !ok {
			res.Verdict = Unknown
			res.Reason = fmt.Sprintf("no set of at most %d changes forbids the %d bad executions found", opt.MaxChanges, len(known))
			return res, nil
		}
		chosen = set
		cur = changesOf(set)
		if opt.Progress != nil {
			opt.Progress(len(known), len(set))
		}
	}
}

// slotKind is a slot with the kind chosen for it (a fence site) or its
// raise.
type slotKind struct {
	s    slot
	kind cs.FenceKind
	cost int
}

func changesOf(set []slotKind) execgraph.Changes {
	ch := execgraph.Changes{Fences: map[int]cs.FenceKind{}, Raise: map[execgraph.Access]cs.Ann{}}
	for _, sk := range set {
		if sk.s.site >= 0 {
			ch.Fences[sk.s.site] = sk.kind
			continue
		}
		ann := cs.Acquire
		if sk.s.write {
			ann = cs.Release
		}
		for _, a := range sk.s.accesses {
			ch.Raise[a] = ann
		}
	}
	return ch
}

// candidates are the slots of the remembered executions: the sites each
// passes between two accesses of one process, and its raisable accesses.
func candidates(sys *cs.System, m memmodel.Model, known []*execgraph.Execution, opt Options) []slot {
	sites := map[int]bool{}
	acc := map[cs.Pos]*slot{}
	for _, x := range known {
		for _, ps := range x.PassedSites() {
			for _, s := range ps {
				if opt.CanFence == nil || opt.CanFence(s) {
					sites[s] = true
				}
			}
		}
		if m.RaiseCost() == 0 || opt.CanRaise == nil {
			continue
		}
		for _, a := range x.PlainAccesses() {
			if !opt.CanRaise(a.Proc, a.Edge) {
				continue
			}
			e := sys.Procs[a.Proc].Edges[a.Edge]
			if e.Op.Kind != cs.OpRead && e.Op.Kind != cs.OpWrite {
				continue
			}
			if acc[e.Pos] == nil {
				acc[e.Pos] = &slot{site: -1, write: e.Op.Kind == cs.OpWrite, pos: e.Pos}
				// every instance of the source access changes with it
				for p, proc := range sys.Procs {
					for ei, f := range proc.Edges {
						if f.Pos == e.Pos && f.Op.Kind == e.Op.Kind {
							acc[e.Pos].accesses = append(acc[e.Pos].accesses, execgraph.Access{Proc: p, Edge: ei})
						}
					}
				}
			}
		}
	}
	var out []slot
	for s := range sites {
		out = append(out, slot{site: s})
	}
	for _, a := range acc {
		out = append(out, *a)
	}
	// sites first, by id; then accesses, by position
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.site >= 0) != (b.site >= 0) {
			return a.site >= 0
		}
		if a.site >= 0 {
			return a.site < b.site
		}
		return a.pos < b.pos
	})
	return out
}

// chooser picks sets of changes that make the model forbid every
// remembered execution.
type chooser struct {
	ex        *execgraph.Explorer
	m         memmodel.Model
	known     []*execgraph.Execution
	slots     []slot
	strongest slotKind
}

func newChooser(ex *execgraph.Explorer, m memmodel.Model, known []*execgraph.Execution, slots []slot) *chooser {
	c := &chooser{ex: ex, m: m, known: known, slots: slots, strongest: slotKind{kind: cs.FullFence}}
	if b, ok := memmodel.BarrierOf(m, cs.FullFence); ok {
		c.strongest.cost = b.Cost
	}
	return c
}

func (c *chooser) kills(set []slotKind) bool {
	ch := changesOf(set)
	for _, x := range c.known {
		if c.ex.Allows(x, ch) {
			return false
		}
	}
	return true
}

// cheapest is the cheapest choice of kinds for the slots idx that forbids
// every remembered execution, or false when even the strongest does not.
func (c *chooser) cheapest(idx []int) ([]slotKind, int, bool) {
	n := len(idx)
	set := make([]slotKind, n)
	for i, k := range idx {
		set[i] = c.strongest
		set[i].s = c.slots[k]
		if c.slots[k].site < 0 {
			set[i].cost = c.m.RaiseCost()
		}
	}
	if !c.kills(set) {
		return nil, 0, false
	}
	var best []slotKind
	bestCost := -1
	var assign func(i, cost int)
	assign = func(i, cost int) {
		if bestCost >= 0 && cost >= bestCost {
			return
		}
		if i == n {
			if c.kills(set) {
				best, bestCost = append([]slotKind(nil), set...), cost
			}
			return
		}
		if set[i].s.site < 0 {
			assign(i+1, cost+set[i].cost)
			return
		}
		for _, b := range c.m.Barriers() {
			set[i].kind, set[i].cost = b.Kind, b.Cost
			assign(i+1, cost+b.Cost)
		}
		set[i].kind, set[i].cost = c.strongest.kind, c.strongest.cost
	}
	assign(0, 0)
	return best, bestCost, true
}

// best returns a cheapest set among the smallest, of at most max changes.
func (c *chooser) best(max int) ([]slotKind, bool) {
	for n := 0; n <= max && n <= len(c.slots); n++ {
		var best []slotKind
		bestCost := -1
		combinations(len(c.slots), n, func(idx []int) {
			if set, cost, ok := c.cheapest(idx); ok && (bestCost < 0 || cost < bestCost) {
				best, bestCost = set, cost
			}
		})
		if best != nil {
			return best, true
		}
	}
	return nil, false
}

// sameSize calls f with the cheapest kinds of every set of n slots that
// forbids every remembered execution.
func (c *chooser) sameSize(n int, f func([]slotKind)) {
	combinations(len(c.slots), n, func(idx []int) {
		if set, _, ok := c.cheapest(idx); ok {
			f(set)
		}
	})
}

// alternatives are up to limit other sets of as many changes as chosen
// that make the program correct (each verified), cheapest first.
func alternatives(ctx context.Context, ex *execgraph.Explorer, m memmodel.Model, known []*execgraph.Execution, slots []slot, chosen []slotKind, limit int) ([][]slotKind, error) {
	key := func(set []slotKind) string { return fmt.Sprint(changesOf(set)) }
	var sets [][]slotKind
	newChooser(ex, m, known, slots).sameSize(len(chosen), func(set []slotKind) {
		if key(set) != key(chosen) {
			sets = append(sets, set)
		}
	})
	cost := func(set []slotKind) int {
		n := 0
		for _, sk := range set {
			n += sk.cost
		}
		return n
	}
	sort.SliceStable(sets, func(i, j int) bool { return cost(sets[i]) < cost(sets[j]) })
	var out [][]slotKind
	for _, set := range sets {
		if len(out) == limit {
			break
		}
		r, err := ex.Check(ctx, changesOf(set))
		if err != nil {
			return nil, err
		}
		if r.Verdict == execgraph.NoBad {
			out = append(out, set)
		}
	}
	return out, nil
}

// combinations calls f with every n-subset of 0..k-1 in lexicographic
// order.
func combinations(k, n int, f func([]int)) {
	idx := make([]int, n)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == n {
			f(idx)
			return
		}
		for j := from; j <= k-(n-i); j++ {
			idx[i] = j
			rec(i+1, j+1)
		}
	}
	rec(0, 0)
}

// describe turns the chosen set into changes, each with a bad execution
// allowed without it.
func describe(ctx context.Context, ex *execgraph.Explorer, sys *cs.System, m memmodel.Model, set []slotKind, text func(cs.Pos) string) []Change {
	var out []Change
	for i, sk := range set {
		c := Change{Cost: sk.cost}
		if sk.s.site >= 0 {
			c.Site = sys.Sites[sk.s.site]
			c.Kind = sk.kind
			if b, ok := memmodel.BarrierOf(m, sk.kind); ok {
				c.Instr = b.Name
			}
		} else {
			a := sk.s.accesses[0]
			c.Proc, c.Edge, c.Pos = a.Proc, a.Edge, sk.s.pos
			c.Ann = cs.Acquire
			if sk.s.write {
				c.Ann = cs.Release
			}
		}
		rest := append(append([]slotKind(nil), set[:i]...), set[i+1:]...)
		if r, err := ex.Check(ctx, changesOf(rest)); err == nil && r.Verdict == execgraph.Bad {
			c.Needed = ex.Witness(r.Witness, text)
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return posOf(out[i]) < posOf(out[j]) })
	return out
}

func posOf(c Change) int {
	if c.Site != nil {
		return c.Site.Start
	}
	return c.Pos.Offset()
}
