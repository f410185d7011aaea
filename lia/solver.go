package lia

import (
	"errors"

	"fencer/expr"
	"fencer/smt/answer"
)

// Prover is an incremental solver: Check answers for the conjunction of
// everything asserted since the last matching Pops. Errors are for misuse
// or a broken solver, not for "unknown". It is what package predabs needs
// of a solver (predabs.Prover is this interface); Solver implements it and
// takes another as its fallback.
type Prover interface {
	Push() error
	Pop() error
	Assert(f expr.Expr) error
	Check() (answer.Answer, error)
}

// Stats counts what Solver did with its queries.
type Stats struct {
	Decided int // answered here (sat or unsat); the rest went to the fallback
	// Rejected counts models found here that did not satisfy the formulas
	// when evaluated: a bug of this package, answered by the fallback.
	Rejected int
}

// item is one top-level conjunct of an asserted formula, with its
// variables.
type item struct {
	n    *node
	vars []int32
}

// frame is one scope: its formulas, their top-level conjuncts, and what is
// known of the conjunction of this and all lower scopes.
type frame struct {
	fs    []expr.Expr
	items []item
	out   int // formulas outside the fragment
	// model satisfies this and every lower frame (nil: none known).
	model []int64
	unsat bool // this and the lower frames are known unsatisfiable
}

// Solver decides linear-integer queries itself where it can and sends the
// others to a fallback prover, which mirrors its scopes lazily.
type Solver struct {
	Stats    Stats
	fallback Prover // nil: answer Unknown instead
	frames   []frame
	mirrored int // frames[:mirrored] are pushed and asserted in fallback
	tr       *translator
	s        search
	mark     []bool // by variable: in the cone of the query
}

// New returns a solver that sends what it cannot decide to fallback (nil:
// such queries are answered Unknown).
func New(fallback Prover) *Solver {
	return &Solver{fallback: fallback, frames: []frame{{model: []int64{}}}, mirrored: 1, tr: newTranslator()}
}

// Push opens a scope.
func (d *Solver) Push() error {
	d.frames = append(d.frames, frame{})
	return nil
}

// Pop closes the innermost scope.
func (d *Solver) Pop() error {
	if len(d.frames) <= 1 {
		return errors.New("lia: pop without push")
	}
	if d.mirrored == len(d.frames) {
		d.mirrored--
		if err := d.fallback.Pop(); err != nil {
			return err
		}
	}
	d.frames = d.frames[:len(d.frames)-1]
	return nil
}

// Assert adds f to the innermost scope.
func (d *Solver) Assert(f expr.Expr) error {
	top := &d.frames[len(d.frames)-1]
	top.model, top.unsat = nil, false
	top.fs = append(top.fs, f)
	if n, ok := d.tr.formula(f, false); ok {
		top.items = appendItems(top.items, n)
	} else {
		top.out++
	}
	if d.mirrored == len(d.frames) && d.fallback != nil {
		return d.fallback.Assert(f)
	}
	return nil
}

// appendItems appends the top-level conjuncts of n.
func appendItems(items []item, n *node) []item {
	if n.kind == kAnd {
		for _, k := range n.kids {
			items = appendItems(items, k)
		}
		return items
	}
	if n.kind == kTrue {
		return items
	}
	if n.vars == nil {
		vars := []int32{}
		n.walkVars(func(v int32) {
			for _, w := range vars {
				if w == v {
					return
				}
			}
			vars = append(vars, v)
		})
		n.vars = vars
	}
	return append(items, item{n, n.vars})
}

func (n *node) walkVars(f func(int32)) {
	if n.kind == kLit {
		for _, t := range n.lit.ts {
			f(t.v)
		}
	}
	for _, k := range n.kids {
		k.walkVars(f)
	}
}

// Check decides the conjunction of the formulas of all open scopes.
func (d *Solver) Check() (answer.Answer, error) {
	if ans, ok := d.decide(len(d.frames) - 1); ok {
		d.Stats.Decided++
		return ans, nil
	}
	if d.fallback == nil {
		return answer.Unknown, nil
	}
	for ; d.mirrored < len(d.frames); d.mirrored++ {
		if err := d.fallback.Push(); err != nil {
			return answer.Unknown, err
		}
		for _, f := range d.frames[d.mirrored].fs {
			if err := d.fallback.Assert(f); err != nil {
				return answer.Unknown, err
			}
		}
	}
	return d.fallback.Check()
}

// decide answers for frames[:top+1] if it can, recording a model or
// unsatisfiability in frames[top].
//
// With a model of the frames below top, the query is first answered by
// evaluating top's formulas under it; failing that, only the conjuncts
// connected to top's variables are searched: the others are satisfied by
// that model on variables the search does not touch.
func (d *Solver) decide(top int) (answer.Answer, bool) {
	fr := &d.frames[top]
	if fr.model != nil {
		return answer.Sat, true
	}
	if fr.unsat {
		return answer.Unsat, true
	}
	for _, f := range d.frames[:top+1] {
		if f.out > 0 {
			return answer.Unknown, false
		}
	}
	d.s.nvars = len(d.tr.names)
	var below []int64
	if top > 0 {
		ans, ok := d.decide(top - 1)
		switch {
		case ok && ans == answer.Unsat:
			fr.unsat = true
			return answer.Unsat, true
		case ok:
			below = d.frames[top-1].model
		}
	}
	if below != nil && d.holds(fr.fs, below) {
		fr.model = below
		return answer.Sat, true
	}
	todo := d.cone(top, below != nil)
	d.s.checks = 0
	ans := d.s.run(nil, todo)
	switch ans {
	case answer.Unknown:
		return ans, false
	case answer.Unsat:
		fr.unsat = true
		return ans, true
	}
	// The search's values on the cone, the model below elsewhere.
	model := make([]int64, d.s.nvars)
	copy(model, below)
	for v, in := range d.mark {
		if in && v < len(d.s.model) {
			model[v] = d.s.model[v]
		}
	}
	for _, f := range d.frames[:top+1] {
		if !d.holds(f.fs, model) {
			d.Stats.Rejected++
			return answer.Unknown, false
		}
	}
	fr.model = model
	return answer.Sat, true
}

// cone returns the conjuncts of frames[:top+1] to search, marking their
// variables in d.mark: all of them, or, when the frames below top are known
// satisfiable (sliced), those connected to top's conjuncts through shared
// variables.
func (d *Solver) cone(top int, sliced bool) []*node {
	if len(d.mark) < d.s.nvars {
		d.mark = make([]bool, d.s.nvars)
	}
	d.mark = d.mark[:d.s.nvars]
	clear(d.mark)
	var todo []*node
	if !sliced {
		for _, f := range d.frames[:top+1] {
			for _, it := range f.items {
				todo = append(todo, it.n)
				for _, v := range it.vars {
					d.mark[v] = true
				}
			}
		}
		return todo
	}
	for _, it := range d.frames[top].items {
		todo = append(todo, it.n)
		for _, v := range it.vars {
			d.mark[v] = true
		}
	}
	taken := make([][]bool, top)
	for i := range taken {
		taken[i] = make([]bool, len(d.frames[i].items))
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < top; i++ {
			for j, it := range d.frames[i].items {
				if taken[i][j] || !touches(it.vars, d.mark) {
					continue
				}
				taken[i][j], changed = true, true
				todo = append(todo, it.n)
				for _, v := range it.vars {
					d.mark[v] = true
				}
			}
		}
	}
	return todo
}

func touches(vars []int32, mark []bool) bool {
	for _, v := range vars {
		if mark[v] {
			return true
		}
	}
	return false
}

// holds evaluates formulas under a model by variable index (variables
// outside it are 0).
func (d *Solver) holds(fs []expr.Expr, model []int64) bool {
	env := func(name string) (int64, bool) {
		if i, ok := d.tr.index[name]; ok && int(i) < len(model) {
			return model[i], true
		}
		return 0, true
	}
	for _, f := range fs {
		if ok, err := expr.Holds(f, env); err != nil || !ok {
			return false
		}
	}
	return true
}
