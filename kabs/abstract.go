package kabs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fencer/cs"
	"fencer/expr"
	"fencer/memmodel"
)

// Rule names the transition rule of the paper (Fig. 3 and Fig. 5) that an
// abstract step uses.
type Rule uint8

const (
	RuleReadM    Rule = iota // read from memory
	RuleReadB                // read the newest buffered write (lw_{p,x})
	RuleWriteSC              // SC: write to memory
	RuleWriteL               // write into the exact part of the buffer
	RuleWriteG               // write into the abstract tail: S ∪ {x}, lw_{p,x}
	RuleFence                // fence with empty buffers
	RuleAtomic               // atomic block with empty buffers
	RuleAssign               // local assignment
	RuleHavoc                // r = *
	RuleAssume               // guard
	RuleUpdateNE             // flush the oldest exact write
	RuleUpdateAM             // flush a write to x ∈ S that is not its last: x gets any value
	RuleUpdateAS             // flush the last write to x ∈ S: x := lw_{p,x}, S \ {x}
)

var ruleNames = [...]string{"READ-M", "READ-B", "WRITE", "WRITE-L", "WRITE-G", "FENCE", "ATOMIC",
	"ASSIGN", "HAVOC", "GUARD", "UPDATE-NE", "UPDATE-AM", "UPDATE-AS"}

func (r Rule) String() string { return ruleNames[r] }

// IsFlush reports whether r is an UPDATE rule.
func (r Rule) IsFlush() bool { return r >= RuleUpdateNE }

// Unbounded as K makes the abstraction exact: every write stays in the
// exact part of the buffer (the TSO semantics of Fig. 3).
const Unbounded = -1

// Abs is the k-abstraction of a system under SC, TSO or PSO: control states
// (pc, B_x, S) and symbolic data transitions over
// X = X_S ∪ X_L ∪ X_B ∪ X_LW. Under PSO each process has one buffer per
// variable, each abstracted the same way: its oldest k writes exact
// (slots b_{p,x,i}), the rest folded into S(p) and lw_{p,x}.
type Abs struct {
	Sys   *cs.System
	Model memmodel.Model
	K     int // exact writes kept per buffer; Unbounded for the exact semantics

	layout memmodel.Layout // Model.Layout(): the buffers abstracted
	shared []string
	sidx   map[string]int
	epochs bool // PSO with store fences: Ctl.E orders the exact writes
	memo   *transMemo
	// writers lists per shared variable the processes that write it
	// (Owned), made once.
	ownOnce sync.Once
	writers map[string][]int
}

// transID identifies the transition of an abstract step: the same process,
// edge (or flushed variable), rule and buffer length give the same relation.
type transID struct {
	proc, edge, x, n int
	rule             Rule
}

// trans returns the memoised transition of id, building it once (safe for
// concurrent use: memo.go).
func (a *Abs) trans(id transID, build func() *Trans) *Trans { return a.memo.get(id, build) }

// NewAbs returns the k-abstraction of sys under m.
func NewAbs(sys *cs.System, m memmodel.Model, k int) (*Abs, error) {
	m = memmodel.OrSC(m)
	if m.Axioms() != nil {
		return nil, fmt.Errorf("kabs: %s is not a store-buffer model", m.Name())
	}
	a := &Abs{Sys: sys, Model: m, layout: m.Layout(), K: k, sidx: map[string]int{}, memo: newTransMemo()}
	for i, v := range sys.Shared {
		a.shared = append(a.shared, v.Name)
		a.sidx[v.Name] = i
	}
	switch a.layout {
	case memmodel.Unbuffered:
		a.K = 0
	case memmodel.PerProcess:
	case memmodel.PerVariable:
		_, a.epochs = memmodel.StoreFence(sys)
	default:
		return nil, fmt.Errorf("memory model %v: buffer layout %d has no k-abstraction", m, a.layout)
	}
	return a, nil
}

// Layout is the buffer layout of the model (Model.Layout()).
func (a *Abs) Layout() memmodel.Layout { return a.layout }

// slot names the i-th exact slot for a write to x by proc.
func (a *Abs) slot(proc, x string, i int) string {
	return SlotName(a.layout, proc, x, i)
}

// SlotName names the i-th exact buffer slot that holds a write to x by
// proc under layout l: b_{proc,i} with one buffer per process (SlotVar),
// b_{proc,x,i} with one per variable (SlotVarX).
func SlotName(l memmodel.Layout, proc, x string, i int) string {
	if l == memmodel.PerVariable {
		return SlotVarX(proc, x, i)
	}
	return SlotVar(proc, i)
}

// Ctl is the control part of an abstract state.
type Ctl struct {
	PC []cs.Loc
	// B holds per process the shared variables of the exact writes: under
	// TSO oldest first; under PSO sorted (only the count per variable
	// matters, each variable's writes being in order in their own buffer).
	B [][]int
	S [][]int // per process: the sorted set S(p) of variables in the abstract tail
	// E holds, under PSO for a system with store fences, the epoch of each
	// exact write of B (same index): 0 with no store fence after it, lower
	// for each store fence since (as memmodel.Entry.Epoch). An exact write
	// reaches memory only when no exact write of its process has a lower
	// epoch. The writes of the abstract tail have no epoch: they may reach
	// memory in any order, an over-approximation that a larger k refines
	// (with k unbounded there is no tail and the order is exact). nil
	// otherwise.
	E [][]int
}

// Key encodes the control state.
func (c *Ctl) Key() string {
	var b strings.Builder
	for p := range c.PC {
		b.WriteString(strconv.Itoa(int(c.PC[p])))
		if len(c.B) > 0 {
			b.WriteByte('[')
			for _, x := range c.B[p] {
				b.WriteString(strconv.Itoa(x) + ",")
			}
			b.WriteByte('|')
			for _, x := range c.S[p] {
				b.WriteString(strconv.Itoa(x) + ",")
			}
			if c.E != nil {
				b.WriteByte('|')
				for _, e := range c.E[p] {
					b.WriteString(strconv.Itoa(e) + ",")
				}
			}
			b.WriteByte(']')
		}
		b.WriteByte(';')
	}
	return b.String()
}

// Empty reports whether p's buffer is empty.
func (c *Ctl) Empty(p int) bool { return len(c.B) == 0 || len(c.B[p]) == 0 && len(c.S[p]) == 0 }

// clone copies the outer slices (the per-process lists are shared, never
// modified in place); B, S and E of the copy share one allocation, each
// capped at its length.
func (c *Ctl) clone() *Ctl {
	d := &Ctl{PC: append([]cs.Loc(nil), c.PC...)}
	n := len(c.B)
	if c.B != nil {
		k := 2
		if c.E != nil {
			k = 3
		}
		bs := make([][]int, k*n)
		copy(bs, c.B)
		copy(bs[n:], c.S)
		d.B, d.S = bs[:n:n], bs[n:2*n:2*n]
		if c.E != nil {
			copy(bs[2*n:], c.E)
			d.E = bs[2*n : 3*n : 3*n]
		}
	} else if c.E != nil {
		d.E = append([][]int(nil), c.E...)
	}
	return d
}

// Init returns the initial control state.
func (a *Abs) Init() *Ctl {
	c := &Ctl{PC: make([]cs.Loc, len(a.Sys.Procs))}
	if a.layout != memmodel.Unbuffered {
		c.B = make([][]int, len(a.Sys.Procs))
		c.S = make([][]int, len(a.Sys.Procs))
	}
	if a.epochs {
		c.E = make([][]int, len(a.Sys.Procs))
	}
	return c
}

// InitFormula is the initial condition over X: declared values, and the
// range of a nondeterministic one that has a range (cs.Init.Ranged).
func (a *Abs) InitFormula() expr.Expr {
	var conj []expr.Expr
	add := func(d []cs.VarDecl) {
		for _, v := range d {
			switch {
			case !v.Init.Nondet:
				conj = append(conj, expr.Eq(expr.V(v.Name), expr.N(v.Init.Value)))
			case v.Init.Ranged:
				conj = append(conj, expr.Le(expr.N(v.Init.Lo), expr.V(v.Name)), expr.Le(expr.V(v.Name), expr.N(v.Init.Hi)))
			}
		}
	}
	add(a.Sys.Shared)
	for _, p := range a.Sys.Procs {
		add(p.Locals)
	}
	return expr.And(conj...)
}

// AStep is one step of an abstract trace: process Proc takes edge Edge, or
// (Edge < 0) flushes a write to shared variable Var, by Rule.
type AStep struct {
	Proc, Edge, Var int
	Rule            Rule
}

// Succ is one abstract successor.
type Succ struct {
	Step AStep
	Ctl  *Ctl
	T    *Trans
}

// Successors returns every abstract step enabled in c (as far as control
// goes: the data guard is in T). It is safe for concurrent use: the
// abstraction's only mutable part is the memo of its transitions
// (memo.go).
func (a *Abs) Successors(c *Ctl) []Succ {
	var out []Succ
	for p, proc := range a.Sys.Procs {
		for _, ei := range proc.Out[c.PC[p]] {
			out = a.edgeSucc(out, c, p, ei)
		}
		out = a.flushSucc(out, c, p)
	}
	return out
}

// Buffered reports whether p's buffer holds a write to x (Contain(x) of the
// paper: in the exact part or in S(p)).
func (c *Ctl) Buffered(p, x int) bool {
	return c.B != nil && (contains(c.B[p], x) || contains(c.S[p], x))
}

func (a *Abs) edgeSucc(out []Succ, c *Ctl, p, ei int) []Succ {
	proc := a.Sys.Procs[p]
	e := proc.Edges[ei]
	next := c.clone()
	next.PC[p] = e.To
	step := AStep{Proc: p, Edge: ei, Var: -1}
	add := func(r Rule, ctl *Ctl, n int, build func() *Trans) {
		step.Rule = r
		t := a.trans(transID{proc: p, edge: ei, x: -1, n: n, rule: r}, build)
		out = append(out, Succ{Step: step, Ctl: ctl, T: t})
	}
	op := e.Op
	switch op.Kind {
	case cs.OpRead:
		x := a.sidx[op.Shared]
		if c.Buffered(p, x) {
			add(RuleReadB, next, 0, func() *Trans {
				return newTrans(expr.True, []Assign{{op.Local, expr.V(LWVar(proc.Name, op.Shared))}}, nil)
			})
		} else {
			add(RuleReadM, next, 0, func() *Trans { return newTrans(expr.True, []Assign{{op.Local, expr.V(op.Shared)}}, nil) })
		}
	case cs.OpWrite:
		x := a.sidx[op.Shared]
		switch {
		case a.layout == memmodel.Unbuffered:
			add(RuleWriteSC, next, 0, func() *Trans { return newTrans(expr.True, []Assign{{op.Shared, op.Val}}, nil) })
		case a.exactRoom(c, p, x):
			if a.layout == memmodel.PerVariable {
				i := sortedPos(c.B[p], x)
				next.B[p] = insertAt(c.B[p], i, x)
				if c.E != nil {
					next.E[p] = insertAt(c.E[p], i, 0)
				}
			} else {
				next.B[p] = append(append([]int(nil), c.B[p]...), x)
			}
			i := a.exactCount(c.B[p], x) + 1
			add(RuleWriteL, next, i, func() *Trans {
				return newTrans(expr.True, []Assign{
					{a.slot(proc.Name, op.Shared, i), op.Val}, {LWVar(proc.Name, op.Shared), op.Val}}, nil)
			})
		default:
			next.S[p] = addSet(c.S[p], x)
			add(RuleWriteG, next, 0, func() *Trans { return newTrans(expr.True, []Assign{{LWVar(proc.Name, op.Shared), op.Val}}, nil) })
		}
	case cs.OpFence:
		// A store fence does not wait: under SC and TSO it orders nothing,
		// under PSO the exact writes buffered since the last one move below
		// every later write (Ctl.E).
		if op.Fence == cs.StoreFence {
			if c.E != nil && slices.Contains(c.E[p], 0) {
				e := make([]int, len(c.E[p]))
				for i, v := range c.E[p] {
					e[i] = v - 1
				}
				next.E[p] = e
			}
			add(RuleFence, next, 0, func() *Trans { return Identity })
		} else if c.Empty(p) {
			add(RuleFence, next, 0, func() *Trans { return Identity })
		}
	case cs.OpAtomic:
		if c.Empty(p) {
			add(RuleAtomic, next, 0, func() *Trans { return atomicTrans(op.Body) })
		}
	case cs.OpAssign:
		add(RuleAssign, next, 0, func() *Trans { return newTrans(expr.True, []Assign{{op.Local, op.Val}}, nil) })
	case cs.OpHavoc:
		add(RuleHavoc, next, 0, func() *Trans {
			return newTrans(expr.True, []Assign{{op.Local, expr.V(StepVar(0))}}, []string{StepVar(0)})
		})
	case cs.OpAssume:
		add(RuleAssume, next, 0, func() *Trans { return newTrans(op.Val, nil, nil) })
	}
	return out
}

// atomicTrans composes an atomic body: reads and writes act on memory.
func atomicTrans(body []cs.Op) *Trans {
	b := newBuilder(StepVar)
	for _, op := range body {
		switch op.Kind {
		case cs.OpRead:
			b.assign(op.Local, expr.V(op.Shared))
		case cs.OpWrite:
			b.assign(op.Shared, op.Val)
		case cs.OpAssign:
			b.assign(op.Local, op.Val)
		case cs.OpHavoc:
			b.havocVar(op.Local)
		case cs.OpAssume:
			b.assume(op.Val)
		}
	}
	return b.build()
}

// exactRoom reports whether a write to x by p goes to the exact part: the
// tail is empty (under PSO: x's tail) and the exact part has room.
func (a *Abs) exactRoom(c *Ctl, p, x int) bool { return a.exactRoomUnder(c, p, x, a.K) }

// exactRoomUnder is exactRoom with an exact part k writes long.
func (a *Abs) exactRoomUnder(c *Ctl, p, x, k int) bool {
	if a.layout == memmodel.PerVariable {
		return !contains(c.S[p], x) && (k == Unbounded || a.exactCount(c.B[p], x) < k)
	}
	return len(c.S[p]) == 0 && (k == Unbounded || len(c.B[p]) < k)
}

// ExceedsK reports whether the step s of a (a successor it returned)
// leaves more than k exact writes in its process's buffer: a WRITE-L
// that the k-abstraction, with an exact part k writes long, would send
// to the tail (for k < a.K; a staged exploration holds such steps back,
// package cegar).
func (a *Abs) ExceedsK(s Succ, k int) bool {
	if s.Step.Rule != RuleWriteL || k == Unbounded {
		return false
	}
	p := s.Step.Proc
	x := a.sidx[a.Sys.Procs[p].Edges[s.Step.Edge].Op.Shared]
	return a.exactCount(s.Ctl.B[p], x) > k
}

// exactCount is the number of exact writes to x in b (under TSO: the slot
// number of the last one is len(b), so the count of all writes matters).
func (a *Abs) exactCount(b []int, x int) int {
	if a.layout != memmodel.PerVariable {
		return len(b)
	}
	n := 0
	for _, y := range b {
		if y == x {
			n++
		}
	}
	return n
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// sortedPos is where x goes in the sorted s: after every element <= x.
func sortedPos(s []int, x int) int {
	i := 0
	for i < len(s) && s[i] <= x {
		i++
	}
	return i
}

func insertAt(s []int, i, x int) []int {
	return append(append(append([]int(nil), s[:i]...), x), s[i:]...)
}

func removeAt(s []int, i int) []int {
	return append(append([]int(nil), s[:i]...), s[i+1:]...)
}

func removeFirst(s []int, x int) []int {
	for i, y := range s {
		if y == x {
			return append(append([]int(nil), s[:i]...), s[i+1:]...)
		}
	}
	return s
}

func (a *Abs) flushSucc(out []Succ, c *Ctl, p int) []Succ {
	if a.layout == memmodel.Unbuffered {
		return out
	}
	if a.layout == memmodel.PerVariable {
		return a.flushSuccPSO(out, c, p)
	}
	proc := a.Sys.Procs[p]
	if n := len(c.B[p]); n > 0 { // UPDATE-NE
		x := c.B[p][0]
		next := c.clone()
		next.B[p] = c.B[p][1:]
		t := a.trans(transID{proc: p, edge: -1, x: x, n: n, rule: RuleUpdateNE}, func() *Trans {
			as := []Assign{{a.shared[x], expr.V(SlotVar(proc.Name, 1))}}
			for i := 1; i < n; i++ {
				as = append(as, Assign{SlotVar(proc.Name, i), expr.V(SlotVar(proc.Name, i+1))})
			}
			return newTrans(expr.True, as, nil)
		})
		return append(out, Succ{Step: AStep{Proc: p, Edge: -1, Var: x, Rule: RuleUpdateNE}, Ctl: next, T: t})
	}
	return a.flushTail(out, c, p, c.S[p])
}

// flushSuccPSO flushes, for each variable x with buffered writes, the
// oldest of them.
func (a *Abs) flushSuccPSO(out []Succ, c *Ctl, p int) []Succ {
	proc := a.Sys.Procs[p]
	var tailOnly []int
	for _, x := range c.S[p] {
		if !contains(c.B[p], x) {
			tailOnly = append(tailOnly, x)
		}
	}
	for i, x := range c.B[p] {
		if i > 0 && c.B[p][i-1] == x {
			continue
		}
		if c.E != nil && c.E[p][i] != slices.Min(c.E[p]) {
			continue // an exact write before a store fence is still buffered
		}
		n := a.exactCount(c.B[p], x)
		name := a.shared[x]
		next := c.clone()
		next.B[p] = removeAt(c.B[p], i)
		if c.E != nil {
			next.E[p] = removeAt(c.E[p], i)
		}
		t := a.trans(transID{proc: p, edge: -1, x: x, n: n, rule: RuleUpdateNE}, func() *Trans {
			as := []Assign{{name, expr.V(SlotVarX(proc.Name, name, 1))}}
			for j := 1; j < n; j++ {
				as = append(as, Assign{SlotVarX(proc.Name, name, j), expr.V(SlotVarX(proc.Name, name, j+1))})
			}
			return newTrans(expr.True, as, nil)
		})
		out = append(out, Succ{Step: AStep{Proc: p, Edge: -1, Var: x, Rule: RuleUpdateNE}, Ctl: next, T: t})
	}
	return a.flushTail(out, c, p, tailOnly)
}

// flushTail gives the UPDATE-AM and UPDATE-AS steps of the variables xs of
// the abstract tail of p.
func (a *Abs) flushTail(out []Succ, c *Ctl, p int, xs []int) []Succ {
	proc := a.Sys.Procs[p]
	for _, x := range xs {
		am := a.trans(transID{proc: p, edge: -1, x: x, rule: RuleUpdateAM}, func() *Trans {
			return newTrans(expr.True, []Assign{{a.shared[x], expr.V(StepVar(0))}}, []string{StepVar(0)})
		})
		out = append(out, Succ{Step: AStep{Proc: p, Edge: -1, Var: x, Rule: RuleUpdateAM}, Ctl: c, T: am})
		next := c.clone()
		next.S[p] = removeSet(c.S[p], x)
		as := a.trans(transID{proc: p, edge: -1, x: x, rule: RuleUpdateAS}, func() *Trans {
			return newTrans(expr.True, []Assign{{a.shared[x], expr.V(LWVar(proc.Name, a.shared[x]))}}, nil)
		})
		out = append(out, Succ{Step: AStep{Proc: p, Edge: -1, Var: x, Rule: RuleUpdateAS}, Ctl: next, T: as})
	}
	return out
}

func addSet(s []int, x int) []int {
	for i, y := range s {
		if y == x {
			return s
		}
		if y > x {
			out := append(append(append([]int(nil), s[:i]...), x), s[i:]...)
			return out
		}
	}
	return append(append([]int(nil), s...), x)
}

func removeSet(s []int, x int) []int {
	var out []int
	for _, y := range s {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// Interpret replays the process operations and flushes of a trace in this
// abstraction (its own K), choosing each rule as the control state dictates,
// and returns the transitions of the steps. A flush step means "flush the
// oldest write of the process"; its Var must be that write's variable. ok is
// false, with the index of the step, when the trace is not possible in
// this abstraction as far as control goes.
func (a *Abs) Interpret(steps []AStep) (ts []*Trans, ctls []*Ctl, bad int, ok bool) {
	c := a.Init()
	ctls = append(ctls, c)
	conc := make([][]int, len(a.Sys.Procs)) // the real buffer's variables, oldest first
	for i, st := range steps {
		var chosen *Succ
		succ := a.Successors(c)
		for j := range succ {
			s := &succ[j]
			if s.Step.Proc != st.Proc || s.Step.Edge != st.Edge {
				continue
			}
			if st.Edge >= 0 {
				chosen = s
				break
			}
			// a flush: the real buffer decides which write goes and whether
			// it is the last one to its variable.
			q := conc[st.Proc]
			if s.Step.Var != st.Var || !contains(q, st.Var) || a.layout != memmodel.PerVariable && q[0] != st.Var {
				continue
			}
			last := true
			for _, y := range removeFirst(q, st.Var) {
				if y == st.Var {
					last = false
				}
			}
			if s.Step.Rule == RuleUpdateNE || (s.Step.Rule == RuleUpdateAS) == last {
				chosen = s
				break
			}
		}
		if chosen == nil {
			return ts, ctls, i, false
		}
		if st.Edge >= 0 && a.Sys.Procs[st.Proc].Edges[st.Edge].Op.Kind == cs.OpWrite && a.layout != memmodel.Unbuffered {
			x := a.sidx[a.Sys.Procs[st.Proc].Edges[st.Edge].Op.Shared]
			conc[st.Proc] = append(conc[st.Proc], x)
		}
		if st.Edge < 0 {
			conc[st.Proc] = removeFirst(conc[st.Proc], st.Var)
		}
		ts = append(ts, chosen.T)
		c = chosen.Ctl
		ctls = append(ctls, c)
	}
	return ts, ctls, -1, true
}
