package memmodel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"fencer/cs"
	"fencer/expr"
)

// Concrete is the semantics of a system under a memory model with real,
// unbounded buffers and concrete 64-bit values.
type Concrete struct {
	Sys    *cs.System
	Model  Model
	layout Layout // Model.Layout()
	// slot maps every variable name (shared first, then the locals of each
	// process) to its index in State.Vals.
	slot  map[string]int
	names []string
	ns    int     // number of shared variables
	nondv []int64 // the values tried for a nondeterministic choice
}

// Entry is one buffered write.
type Entry struct {
	Var int // index of the shared variable
	Val int64
	// Epoch orders the writes of a process across store fences under PSO:
	// 0 for a write with no store fence after it; a store fence lowers
	// the epochs of the writes before it. A write reaches memory only when
	// no write of its process with a lower epoch is buffered. Always 0
	// under TSO (its single FIFO keeps the order anyway).
	Epoch int
}

// State is a concrete configuration (M, L, pc, B).
type State struct {
	PC   []cs.Loc
	Vals []int64 // shared memory, then all locals
	// Buf holds the store buffers, oldest write first: under TSO Buf[p] for
	// process p; under PSO Buf[p*ns+x] for process p and variable x; under SC
	// nothing is ever buffered.
	Buf [][]Entry
}

// Step is one transition: a process operation (Edge ≥ 0) or the flush of the
// oldest buffered write (Edge < 0; under PSO of variable Var). Val is the
// value chosen by a havoc, if the operation has one.
type Step struct {
	Proc int
	Edge int
	Var  int
	Val  int64
}

// IsFlush reports whether the step is a buffer flush.
func (s Step) IsFlush() bool { return s.Edge < 0 }

// Trace is an execution: the initial values and the steps.
type Trace struct {
	Init  []int64
	Steps []Step
}

// NewConcrete prepares the semantics of sys under m (nil: SC).
//
// sys is run as ForBuffers gives it; a model that is not a store-buffer
// model, or a system ForBuffers refuses, panics: callers check with
// ForBuffers first.
func NewConcrete(sys *cs.System, m Model) *Concrete {
	m = OrSC(m)
	sys, err := ForBuffers(sys, m)
	if err != nil {
		panic("memmodel.NewConcrete: " + err.Error())
	}
	c := &Concrete{Sys: sys, Model: m, layout: m.Layout(), slot: map[string]int{}}
	for _, v := range sys.Shared {
		c.slot[v.Name] = len(c.names)
		c.names = append(c.names, v.Name)
	}
	c.ns = len(c.names)
	for _, p := range sys.Procs {
		for _, v := range p.Locals {
			c.slot[v.Name] = len(c.names)
			c.names = append(c.names, v.Name)
		}
	}
	c.nondv = nondetDomain(sys)
	return c
}

// NumShared returns the number of shared variables.
func (c *Concrete) NumShared() int { return c.ns }

// Name returns the name of the variable in slot i.
func (c *Concrete) Name(i int) string { return c.names[i] }

// Slot returns the slot of a variable name, or -1.
func (c *Concrete) Slot(name string) int {
	if i, ok := c.slot[name]; ok {
		return i
	}
	return -1
}

// nondetDomain collects the constants of the program, their neighbours and
// 0: the values an explicit search tries for `*`.
func nondetDomain(sys *cs.System) []int64 {
	set := map[int64]bool{-1: true, 0: true, 1: true}
	add := func(e expr.Expr) {
		if e == nil {
			return
		}
		expr.Walk(e, func(x expr.Expr) {
			if v, ok := expr.IntValue(x); ok && v > -1<<40 && v < 1<<40 {
				set[v-1], set[v], set[v+1] = true, true, true
			}
		})
	}
	var addOp func(op cs.Op)
	addOp = func(op cs.Op) {
		add(op.Val)
		for _, b := range op.Body {
			addOp(b)
		}
	}
	for _, v := range sys.Shared {
		add(expr.N(v.Init.Value))
	}
	for _, p := range sys.Procs {
		for _, v := range p.Locals {
			add(expr.N(v.Init.Value))
		}
		for _, e := range p.Edges {
			addOp(e.Op)
		}
	}
	out := make([]int64, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	if len(out) > 16 { // keep the branching bounded: the smallest magnitudes
		sort.Slice(out, func(i, j int) bool { return abs64(out[i]) < abs64(out[j]) })
		out = out[:16]
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	}
	return out
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// HasNondet reports whether the system has a nondeterministic value that
// the explicit search tries from a guessed set (a havoc, or an initial
// value "= *" without a range: one with a range, cs.Init.Ranged, is tried
// at each value of its range).
func (c *Concrete) HasNondet() bool {
	for _, v := range c.Sys.Shared {
		if v.Init.Nondet && !v.Init.Ranged {
			return true
		}
	}
	for _, p := range c.Sys.Procs {
		for _, v := range p.Locals {
			if v.Init.Nondet && !v.Init.Ranged {
				return true
			}
		}
		for _, e := range p.Edges {
			if hasHavoc(e.Op) {
				return true
			}
		}
	}
	return false
}

func hasHavoc(op cs.Op) bool {
	if op.Kind == cs.OpHavoc {
		return true
	}
	for _, b := range op.Body {
		if hasHavoc(b) {
			return true
		}
	}
	return false
}

// Initials returns the initial states: one per choice of the values declared
// `= *` (from the nondeterministic domain, or its range for a ranged one), at
// most limit of them.
func (c *Concrete) Initials(limit int) []*State {
	base := &State{PC: make([]cs.Loc, len(c.Sys.Procs)), Vals: make([]int64, len(c.names)), Buf: c.emptyBufs()}
	var nondet []int
	ds := c.Decls()
	for i, d := range ds {
		if d.Init.Nondet {
			nondet = append(nondet, i)
		} else {
			base.Vals[i] = d.Init.Value
		}
	}
	out := []*State{base}
	for _, i := range nondet {
		var next []*State
		vals := c.nondv
		if d := ds[i]; d.Init.Ranged {
			vals = rangeValues(d.Init)
		}
		for _, s := range out {
			for _, v := range vals {
				t := s.clone()
				t.Vals[i] = v
				next = append(next, t)
				if len(next) >= limit {
					break
				}
			}
		}
		out = next
	}
	return out
}

// rangeValues lists the range of a ranged initial value.
func rangeValues(in cs.Init) []int64 {
	var out []int64
	for v := in.Lo; v <= in.Hi && len(out) < 1<<16; v++ {
		out = append(out, v)
	}
	return out
}

// InitialFrom returns the initial state with the given values.
func (c *Concrete) InitialFrom(vals []int64) (*State, error) {
	if len(vals) != len(c.names) {
		return nil, fmt.Errorf("trace gives %d initial values, the system has %d variables", len(vals), len(c.names))
	}
	s := &State{PC: make([]cs.Loc, len(c.Sys.Procs)), Vals: append([]int64(nil), vals...), Buf: c.emptyBufs()}
	for i, d := range c.Decls() {
		if !d.Init.Nondet && vals[i] != d.Init.Value {
			return nil, fmt.Errorf("initial value of %s is %d, declared %d", d.Name, vals[i], d.Init.Value)
		}
		if d.Init.Ranged && (vals[i] < d.Init.Lo || vals[i] > d.Init.Hi) {
			return nil, fmt.Errorf("initial value of %s is %d, declared in [%d:%d]", d.Name, vals[i], d.Init.Lo, d.Init.Hi)
		}
	}
	return s, nil
}

// Decls lists the declarations of the variables in slot order: shared, then
// the locals of each process.
func (c *Concrete) Decls() []cs.VarDecl { return c.Sys.Decls() }

func (c *Concrete) emptyBufs() [][]Entry {
	switch c.layout {
	case PerProcess:
		return make([][]Entry, len(c.Sys.Procs))
	case PerVariable:
		return make([][]Entry, len(c.Sys.Procs)*c.ns)
	}
	return nil
}

func (s *State) clone() *State {
	t := &State{PC: append([]cs.Loc(nil), s.PC...), Vals: append([]int64(nil), s.Vals...), Buf: make([][]Entry, len(s.Buf))}
	for i, b := range s.Buf {
		if len(b) > 0 {
			t.Buf[i] = append([]Entry(nil), b...)
		}
	}
	return t
}

// Key encodes the state; equal keys mean equal states.
func (s *State) Key() string {
	b := make([]byte, 0, 8*(len(s.PC)+len(s.Vals)+len(s.Buf)))
	for _, l := range s.PC {
		b = binary.AppendUvarint(b, uint64(l))
	}
	for _, v := range s.Vals {
		b = binary.AppendVarint(b, v)
	}
	for _, buf := range s.Buf {
		b = binary.AppendUvarint(b, uint64(len(buf)))
		for _, e := range buf {
			b = binary.AppendUvarint(b, uint64(e.Var))
			b = binary.AppendVarint(b, e.Val)
			b = binary.AppendVarint(b, int64(e.Epoch))
		}
	}
	return string(b)
}

// BufEmpty reports whether all buffers of process p are empty.
func (c *Concrete) BufEmpty(s *State, p int) bool {
	switch c.layout {
	case PerProcess:
		return len(s.Buf[p]) == 0
	case PerVariable:
		for x := 0; x < c.ns; x++ {
			if len(s.Buf[p*c.ns+x]) > 0 {
				return false
			}
		}
	}
	return true
}

// Buffered returns the writes in p's buffers, oldest first (under PSO
// variable by variable).
func (c *Concrete) Buffered(s *State, p int) []Entry {
	switch c.layout {
	case PerProcess:
		return s.Buf[p]
	case PerVariable:
		var out []Entry
		for x := 0; x < c.ns; x++ {
			out = append(out, s.Buf[p*c.ns+x]...)
		}
		return out
	}
	return nil
}

// read returns what process p reads from shared variable x.
func (c *Concrete) read(s *State, p, x int) int64 {
	switch c.layout {
	case PerProcess:
		b := s.Buf[p]
		for i := len(b) - 1; i >= 0; i-- {
			if b[i].Var == x {
				return b[i].Val
			}
		}
	case PerVariable:
		if b := s.Buf[p*c.ns+x]; len(b) > 0 {
			return b[len(b)-1].Val
		}
	}
	return s.Vals[x]
}

func (c *Concrete) env(vals []int64) func(string) (int64, bool) {
	return func(n string) (int64, bool) {
		i, ok := c.slot[n]
		if !ok {
			return 0, false
		}
		return vals[i], true
	}
}

// errDisabled marks a step that cannot be taken.
var errDisabled = errors.New("step not enabled")

// StoreFence returns the position of the first store fence ("fence store;")
// of sys, if it has one.
func StoreFence(sys *cs.System) (cs.Pos, bool) {
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			if e.Op.Kind == cs.OpFence && e.Op.Fence == cs.StoreFence {
				return e.Pos, true
			}
		}
	}
	return cs.NoPos, false
}

// Successors returns the steps enabled in s and the states they lead to.
func (c *Concrete) Successors(s *State) ([]Step, []*State, error) {
	var steps []Step
	var states []*State
	for p, proc := range c.Sys.Procs {
		for _, ei := range proc.Out[s.PC[p]] {
			vals := []int64{0}
			if needsChoice(proc.Edges[ei].Op) {
				vals = c.nondv
			}
			for _, v := range vals {
				st := Step{Proc: p, Edge: ei, Val: v}
				t, err := c.Apply(s, st)
				if err == errDisabled {
					continue
				}
				if err != nil {
					return nil, nil, err
				}
				steps = append(steps, st)
				states = append(states, t)
			}
		}
		for _, x := range c.flushable(s, p) {
			st := Step{Proc: p, Edge: -1, Var: x}
			t, err := c.Apply(s, st)
			if err != nil {
				return nil, nil, err
			}
			steps = append(steps, st)
			states = append(states, t)
		}
	}
	return steps, states, nil
}

// needsChoice reports whether the op havocs a value (at most one havoc per
// atomic body is enumerated; more are fixed to the step's single Val).
func needsChoice(op cs.Op) bool { return hasHavoc(op) }

// flushable lists the variables whose oldest buffered write p may flush now.
func (c *Concrete) flushable(s *State, p int) []int {
	switch c.layout {
	case PerProcess:
		if len(s.Buf[p]) > 0 {
			return []int{s.Buf[p][0].Var}
		}
	case PerVariable:
		var xs []int
		min := c.minEpoch(s, p)
		for x := 0; x < c.ns; x++ {
			if b := s.Buf[p*c.ns+x]; len(b) > 0 && b[0].Epoch == min {
				xs = append(xs, x)
			}
		}
		return xs
	}
	return nil
}

// minEpoch is the lowest epoch of p's buffered writes under PSO (0 when
// none): the oldest write of each variable has its lowest.
func (c *Concrete) minEpoch(s *State, p int) int {
	min := 0
	for x := 0; x < c.ns; x++ {
		if b := s.Buf[p*c.ns+x]; len(b) > 0 && b[0].Epoch < min {
			min = b[0].Epoch
		}
	}
	return min
}

// storeFence runs a store fence of p under PSO: the writes buffered since
// the last store fence (epoch 0) move below every later write.
func (c *Concrete) storeFence(t *State, p int) {
	fresh := false
	for x := 0; x < c.ns && !fresh; x++ {
		for _, e := range t.Buf[p*c.ns+x] {
			if e.Epoch == 0 {
				fresh = true
				break
			}
		}
	}
	if !fresh {
		return
	}
	for x := 0; x < c.ns; x++ {
		b := t.Buf[p*c.ns+x]
		if len(b) == 0 {
			continue
		}
		nb := make([]Entry, len(b))
		for i, e := range b {
			e.Epoch--
			nb[i] = e
		}
		t.Buf[p*c.ns+x] = nb
	}
}

// Apply performs step st in s and returns the new state, errDisabled if the
// step is not enabled, or an evaluation error (overflow, division by zero).
func (c *Concrete) Apply(s *State, st Step) (*State, error) {
	if st.Proc < 0 || st.Proc >= len(c.Sys.Procs) {
		return nil, fmt.Errorf("no process %d", st.Proc)
	}
	p := st.Proc
	if st.IsFlush() {
		return c.flush(s, p, st.Var)
	}
	proc := c.Sys.Procs[p]
	if st.Edge >= len(proc.Edges) {
		return nil, fmt.Errorf("process %s has no edge %d", proc.Name, st.Edge)
	}
	e := proc.Edges[st.Edge]
	if e.From != s.PC[p] {
		return nil, errDisabled
	}
	t := s.clone()
	t.PC[p] = e.To
	if err := c.exec(t, p, e.Op, st.Val, false); err != nil {
		return nil, err
	}
	return t, nil
}

func (c *Concrete) flush(s *State, p, x int) (*State, error) {
	t := s.clone()
	switch c.layout {
	case PerProcess:
		if len(t.Buf[p]) == 0 || t.Buf[p][0].Var != x {
			return nil, errDisabled
		}
		e := t.Buf[p][0]
		t.Buf[p] = t.Buf[p][1:]
		t.Vals[e.Var] = e.Val
	case PerVariable:
		if x < 0 || x >= c.ns || len(t.Buf[p*c.ns+x]) == 0 {
			return nil, errDisabled
		}
		b := t.Buf[p*c.ns+x]
		if b[0].Epoch != c.minEpoch(s, p) {
			return nil, errDisabled // a write before a store fence is still buffered
		}
		t.Vals[x] = b[0].Val
		t.Buf[p*c.ns+x] = b[1:]
	default:
		return nil, errDisabled
	}
	return t, nil
}

// exec runs op for process p on t in place. inAtomic sends reads and writes
// straight to memory.
func (c *Concrete) exec(t *State, p int, op cs.Op, choice int64, inAtomic bool) error {
	env := c.env(t.Vals)
	switch op.Kind {
	case cs.OpRead:
		x := c.slot[op.Shared]
		v := t.Vals[x]
		if !inAtomic {
			v = c.read(t, p, x)
		}
		t.Vals[c.slot[op.Local]] = v
	case cs.OpWrite:
		x := c.slot[op.Shared]
		v, err := expr.Eval(op.Val, env)
		if err != nil {
			return err
		}
		switch {
		case inAtomic || c.layout == Unbuffered:
			t.Vals[x] = v
		case c.layout == PerProcess:
			t.Buf[p] = append(t.Buf[p], Entry{Var: x, Val: v})
		case c.layout == PerVariable:
			t.Buf[p*c.ns+x] = append(t.Buf[p*c.ns+x], Entry{Var: x, Val: v})
		}
	case cs.OpFence:
		if op.Fence == cs.StoreFence {
			// Under SC and TSO writes already reach memory in order.
			if c.layout == PerVariable {
				c.storeFence(t, p)
			}
			break
		}
		if !c.BufEmpty(t, p) {
			return errDisabled
		}
	case cs.OpAtomic:
		if !c.BufEmpty(t, p) {
			return errDisabled
		}
		for _, b := range op.Body {
			if err := c.exec(t, p, b, choice, true); err != nil {
				return err
			}
		}
	case cs.OpAssign:
		v, err := expr.Eval(op.Val, env)
		if err != nil {
			return err
		}
		t.Vals[c.slot[op.Local]] = v
	case cs.OpHavoc:
		t.Vals[c.slot[op.Local]] = choice
	case cs.OpAssume:
		ok, err := expr.Holds(op.Val, env)
		if err != nil {
			return err
		}
		if !ok {
			return errDisabled
		}
	default:
		return fmt.Errorf("unknown operation %v", op.Kind)
	}
	return nil
}

// Replay runs a trace from its initial values and returns the state after
// each step (states[0] is the initial state). It fails, naming the step,
// when a step is not enabled: the trace is then not an execution of the
// system under the model.
func (c *Concrete) Replay(tr *Trace) ([]*State, error) {
	s, err := c.InitialFrom(tr.Init)
	if err != nil {
		return nil, err
	}
	states := []*State{s}
	for i, st := range tr.Steps {
		t, err := c.Apply(s, st)
		if err == errDisabled {
			return states, fmt.Errorf("step %d (%s) is not enabled", i+1, c.StepString(st))
		}
		if err != nil {
			return states, fmt.Errorf("step %d (%s): %v", i+1, c.StepString(st), err)
		}
		s = t
		states = append(states, s)
	}
	return states, nil
}

// StepString describes a step in a few words.
func (c *Concrete) StepString(st Step) string {
	name := c.Sys.Procs[st.Proc].Name
	if st.IsFlush() {
		return fmt.Sprintf("%s: flush %s", name, c.names[st.Var])
	}
	return fmt.Sprintf("%s: %s", name, c.Sys.Procs[st.Proc].Edges[st.Edge].Op)
}
