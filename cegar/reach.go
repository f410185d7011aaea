package cegar

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"fencer/domains"
	"fencer/kabs"
	"fencer/predabs"
)

// The abstract state of the exploration is a product of three domains:
//
//   - control: the kabs control state (pc, B_x, S), shared by many states;
//     its successors, keys and per-state tables are computed once (ctlNode);
//   - explicit values: a vector over the variables that the static analysis
//     of package domains found finite, buffer slots and last-write values
//     included; its transfer is evaluation, no solver;
//   - a predicate cube over the predicates that mention some variable
//     without an explicit value there (kept): its transfer is predabs's
//     abstract post with the explicit values substituted.
//
// Two states with the same control state and values are compared by their
// cubes (subsumption); the key of a state is its control key and its values.

// ctlNode is a control state with what the exploration needs of it, computed
// once however many states share it.
type ctlNode struct {
	id   int // dense, in order of discovery
	ctl  *kabs.Ctl
	key  string
	bad  bool
	x    []bool // domains.Layout.Explicit
	xsig string // identifies x among the control states
	zero []int  // domains.Layout.Zero
	// keep marks the predicates that are relevant here and mention a
	// variable without an explicit value; anyKeep says whether there is one.
	keep    []bool
	keepKey string
	anyKeep bool
	succs   []ctlSucc // nil until expanded
	// ample lists, per process whose next steps are local and invisible
	// here, the indices in succs of its steps: the candidate ample sets of
	// the partial-order reduction (por.go), fewest steps first. Set by
	// expand when the reduction is on.
	ample [][]int
	// dyn are the positions holding values of dynamic variables, checked
	// against their candidate domains in each new state (domains/dynamic.go).
	dyn []domains.DynPos
}

// ctlSucc is one abstract step out of a control state.
type ctlSucc struct {
	step kabs.AStep
	t    *kabs.Trans
	next *ctlNode
	x    *domains.Step
}

// rnode is one combined abstract state of the BFS, with the step that
// reached it.
type rnode struct {
	c *ctlNode
	// key is the state's key in the visited map (stateKey: the control id
	// and the values), shared with the map; the values are decoded from it
	// when the state is expanded, which keeps a state small.
	key    string
	cube   predabs.Cube
	parent int32
	depth  int32
	via    *ctlSucc // nil for the initial state
}

// nodeStore holds the states of one exploration in fixed-size chunks, so
// that growing it never copies.
type nodeStore struct {
	chunks [][]rnode
	n      int
}

const chunkBits = 12

func (s *nodeStore) add(r rnode) int32 {
	if s.n>>chunkBits == len(s.chunks) {
		s.chunks = append(s.chunks, make([]rnode, 0, 1<<chunkBits))
	}
	c := &s.chunks[len(s.chunks)-1]
	*c = append(*c, r)
	s.n++
	return int32(s.n - 1)
}

func (s *nodeStore) at(i int32) *rnode { return &s.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// path is an abstract counterexample: its steps and their transitions.
type path struct {
	steps []kabs.AStep
	ts    []*kabs.Trans
}

// errLimit marks a limit that makes the verdict unknown.
type errLimit struct{ reason string }

func (e *errLimit) Error() string { return e.reason }

// explorer holds the tables of one exploration.
type explorer struct {
	e     *engine
	abs   *kabs.Abs
	lay   *domains.Layout
	rel   *relevance
	ctls  map[string]*ctlNode
	xsigs map[string]string
	steps map[stepKey]*domains.Step
	// por is the partial-order reduction, nil when it is off (por.go).
	por *porInfo
}

// stepKey identifies a compiled explicit step: the transition and the
// explicitness before and after it.
type stepKey struct {
	t         *kabs.Trans
	pre, post string
}

func (x *explorer) node(c *kabs.Ctl) *ctlNode {
	key := c.Key()
	if n, ok := x.ctls[key]; ok {
		return n
	}
	n := &ctlNode{id: len(x.ctls), ctl: c, key: key, bad: x.abs.Sys.IsBad(c.PC), x: x.lay.Explicit(c), zero: x.lay.Zero(c), dyn: x.lay.DynPositions(c)}
	var sig strings.Builder
	for _, b := range n.x {
		if b {
			sig.WriteByte('1')
		} else {
			sig.WriteByte('0')
		}
	}
	if s, ok := x.xsigs[sig.String()]; ok {
		n.xsig = s
	} else {
		n.xsig = sig.String()
		x.xsigs[n.xsig] = n.xsig
	}
	rel, relKey := x.rel.mask(c)
	n.keep = rel
	kk := []byte(relKey)
	for i, p := range x.e.preds.All() {
		if !rel[i] {
			continue
		}
		explicit := true
		for v := range p.Vars {
			if j, ok := x.lay.Index(v); !ok || !n.x[j] {
				explicit = false
				break
			}
		}
		if explicit {
			n.keep[i] = false
			kk[i/8] &^= 1 << (i % 8)
		} else {
			n.anyKeep = true
		}
	}
	n.keepKey = string(kk)
	x.ctls[key] = n
	return n
}

func (x *explorer) expand(n *ctlNode) ([]ctlSucc, error) {
	if n.succs != nil {
		return n.succs, nil
	}
	out := []ctlSucc{}
	for _, s := range x.abs.Successors(n.ctl) {
		next := x.node(s.Ctl)
		sk := stepKey{s.T, n.xsig, next.xsig}
		st, ok := x.steps[sk]
		if !ok {
			var err error
			if st, err = x.lay.Compile(n.x, next.x, s.T, s.Step); err != nil {
				return nil, err
			}
			x.steps[sk] = st
		}
		out = append(out, ctlSucc{step: s.Step, t: s.T, next: next, x: st})
	}
	n.succs = out
	if x.por != nil {
		n.ample = x.por.candidates(x.abs, n.ctl, out)
	}
	return out, nil
}

func (x *explorer) env(n *ctlNode, vals []int64, key string) *domains.Env {
	return domains.NewEnv(x.lay, n.x, vals, n.xsig+"\x00"+key)
}

// reach explores the combined abstraction breadth first and returns a path
// to a bad state, or nil when none is reachable. Without the partial-order
// reduction the path is a shortest one; with it, a shortest one in the
// reduced graph (por.go).
//
// With dynamic variables (domains/dynamic.go) an exploration may observe
// values outside the candidate domains it branched over: it is then void,
// and is run again with the enlarged domains (or with a variable that
// exceeded the size cap left to predicates). No bad state is reported
// only from an exploration that observed no value outside a domain it
// used. A counterexample is returned as found: it is a sequence of kabs
// steps, judged by its own path formulas, whatever the domains.
func (e *engine) reach(ctx context.Context, abs *kabs.Abs) (*path, error) {
	for {
		lay := domains.NewLayout(e.info, abs)
		p, err := e.explore(ctx, abs, lay)
		if errors.Is(err, domains.ErrArithmetic) && e.info.DropDynamic() {
			e.logf("explicit values: %v; dynamic variables left to predicates, exploring again", err)
			continue
		}
		if err != nil && err != domains.ErrDomainFull {
			return nil, err
		}
		again, what, aerr := e.info.Absorb(lay)
		if aerr != nil {
			return nil, aerr
		}
		if what != "" {
			e.logf("explicit values: %s", what)
		}
		if err == nil && (p != nil || !again) {
			return p, nil
		}
		if !again {
			return nil, fmt.Errorf("internal error: an exploration stopped on a full domain that Absorb kept")
		}
		e.logf("explicit values: exploring again")
	}
}

// explore is one exploration of the combined abstraction with the explicit
// layout lay, whose observations reach then checks.
func (e *engine) explore(ctx context.Context, abs *kabs.Abs, lay *domains.Layout) (*path, error) {
	rel := newRelevance(abs.Sys)
	rel.update(e.preds)
	x := &explorer{e: e, abs: abs, lay: lay, rel: rel,
		ctls: map[string]*ctlNode{}, xsigs: map[string]string{}, steps: map[stepKey]*domains.Step{}}
	if e.porApplies() {
		x.por = newPorInfo(abs.Sys)
	}
	c0 := x.node(abs.Init())
	vals0 := x.lay.Init(c0.ctl)
	var cube0 predabs.Cube
	if c0.anyKeep {
		var ok bool
		var err error
		cube0, ok, err = e.ab.AlphaEnv(abs.InitFormula(), x.env(c0, vals0, domains.Key(vals0)), c0.keep)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
	}
	if !x.lay.Observe(c0.dyn, vals0) {
		return nil, domains.ErrDomainFull
	}
	var nodes nodeStore
	// visited maps (control id, values) to the cubes stored there.
	visited := map[string][]predabs.Cube{}
	var kbuf []byte
	stateKey := func(c *ctlNode, vals []int64) []byte {
		kbuf = binary.AppendUvarint(kbuf[:0], uint64(c.id))
		for _, v := range vals {
			kbuf = binary.AppendVarint(kbuf, v)
		}
		return kbuf
	}
	key0 := string(stateKey(c0, vals0))
	nodes.add(rnode{c: c0, key: key0, cube: cube0, parent: -1})
	if c0.bad {
		return &path{}, nil
	}
	visited[key0] = []predabs.Cube{cube0}
	scratch := make([]int64, x.lay.Len())
	cur := make([]int64, x.lay.Len()) // the values of the state being expanded
	for head := int32(0); int(head) < nodes.n; head++ {
		if head&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, &errLimit{interruptReason(err)}
			}
			if e.progress != nil {
				e.progress(e.stats.States + int(head))
			}
		}
		n := *nodes.at(head)
		decodeVals(n.key, cur)
		succs, err := x.expand(n.c)
		if err != nil {
			return nil, err
		}
		var preEnv *domains.Env
		// visit applies succs[i] and stores its new results. It reports
		// whether the step produced a state (was enabled).
		found := int32(-1)
		visit := func(i int) (produced bool, err error) {
			s := &succs[i]
			var ferr error
			err = s.x.Apply(cur, s.next.zero, scratch, func(vals []int64) bool {
				var cube predabs.Cube
				if s.next.anyKeep || s.x.GuardSymbolic {
					if preEnv == nil {
						preEnv = x.env(n.c, cur, domains.Key(cur))
					}
					var ok bool
					cube, ok, ferr = e.ab.PostEnv(n.cube, s.t, preEnv, x.env(s.next, vals, domains.Key(vals)), s.next.keep, s.next.keepKey)
					if ferr != nil {
						return false
					}
					if !ok {
						return true
					}
				}
				produced = true
				k := stateKey(s.next, vals)
				stored, seen := visited[string(k)]
				if seen && subsumed(stored, cube) {
					return true
				}
				if nodes.n >= e.opt.MaxStates {
					ferr = &errLimit{fmt.Sprintf("state limit reached (%d abstract states, --max-states)", e.opt.MaxStates)}
					return false
				}
				if s.next.dyn != nil && !x.lay.Observe(s.next.dyn, vals) {
					ferr = domains.ErrDomainFull
					return false
				}
				ks := string(k)
				idx := nodes.add(rnode{c: s.next, key: ks, cube: cube, parent: head, via: s, depth: n.depth + 1})
				visited[ks] = insertCube(stored, cube)
				if s.next.bad {
					found = idx
					return false
				}
				return true
			})
			if err == nil {
				err = ferr
			}
			return produced, err
		}
		// The partial-order reduction: the steps of the first candidate
		// process that has an enabled step (doc.go); with none, every step.
		// A candidate none of whose steps is enabled produced no state.
		reduced := false
		var tried []int
		for _, cand := range n.c.ample {
			enabled := false
			for _, i := range cand {
				p, err := visit(i)
				if err != nil {
					e.stats.States += nodes.n
					return nil, err
				}
				if found >= 0 {
					break
				}
				enabled = enabled || p
			}
			tried = append(tried, cand...)
			if found >= 0 || enabled {
				reduced = true
				break
			}
		}
		if !reduced {
			for i := range succs {
				if found >= 0 {
					break
				}
				if contains(tried, i) {
					continue
				}
				if _, err := visit(i); err != nil {
					e.stats.States += nodes.n
					return nil, err
				}
			}
		}
		if x.por != nil {
			if reduced {
				x.por.reduced++
			} else {
				x.por.full++
			}
		}
		if found >= 0 {
			e.stats.States += nodes.n
			e.logf("exploration: %d abstract states (k=%d, %d predicates%s), counterexample of %d steps", nodes.n, e.k, e.preds.Len(), x.por.note(), nodes.at(found).depth)
			return pathTo(&nodes, found), nil
		}
	}
	e.stats.States += nodes.n
	e.logf("exploration: %d abstract states (k=%d, %d predicates%s), no bad state", nodes.n, e.k, e.preds.Len(), x.por.note())
	return nil, nil
}

func interruptReason(err error) string {
	if err == context.DeadlineExceeded {
		return "time limit reached (--timeout)"
	}
	return "interrupted"
}

// decodeVals reads the values of a state key (stateKey) into out.
func decodeVals(key string, out []int64) {
	b := []byte(key)
	_, n := binary.Uvarint(b)
	b = b[n:]
	for i := range out {
		v, n := binary.Varint(b)
		out[i] = v
		b = b[n:]
	}
}

// subsumed reports whether some stored cube covers c.
func subsumed(stored []predabs.Cube, c predabs.Cube) bool {
	for _, d := range stored {
		if c.Implies(d) {
			return true
		}
	}
	return false
}

// insertCube adds c and drops the stored cubes it covers.
func insertCube(stored []predabs.Cube, c predabs.Cube) []predabs.Cube {
	out := stored[:0]
	for _, d := range stored {
		if !d.Implies(c) {
			out = append(out, d)
		}
	}
	return append(out, c)
}

func pathTo(nodes *nodeStore, i int32) *path {
	p := &path{}
	for r := nodes.at(i); r.parent >= 0; r = nodes.at(r.parent) {
		p.steps = append(p.steps, r.via.step)
		p.ts = append(p.ts, r.via.t)
	}
	for l, r := 0, len(p.steps)-1; l < r; l, r = l+1, r-1 {
		p.steps[l], p.steps[r] = p.steps[r], p.steps[l]
		p.ts[l], p.ts[r] = p.ts[r], p.ts[l]
	}
	return p
}
