package predabs

import (
	"strings"
	"sync"

	"fencer/expr"
)

// Pred is one predicate over X.
type Pred struct {
	F    expr.Expr
	Key  string
	Vars map[string]bool
	notF expr.Expr // !F, made once (in Add) so that its identity is stable
}

// Not returns !F (the same term every time).
func (p *Pred) Not() expr.Expr { return p.notF }

// Preds is an append-only, ordered set of predicates: the precision. A cube
// made when the set was smaller is still valid (missing predicates are
// unknown).
type Preds struct {
	list  []*Pred
	index map[string]int
	// byText memoises IndexText: the index (or -1) of a formula by its text
	// as written, before normalisation. Emptied when a predicate is added.
	// Abstractors forked for parallel posts read it at once (mu).
	mu     sync.Mutex
	byText map[string]int
}

// NewPreds returns an empty set.
func NewPreds() *Preds { return &Preds{index: map[string]int{}} }

// Len returns the number of predicates.
func (ps *Preds) Len() int { return len(ps.list) }

// At returns predicate i.
func (ps *Preds) At(i int) *Pred { return ps.list[i] }

// All returns the predicates in order (do not modify).
func (ps *Preds) All() []*Pred { return ps.list }

// Index returns the index of the predicate equal to f after normalisation,
// or -1.
func (ps *Preds) Index(f expr.Expr) int {
	_, k, ok := expr.Normal(f)
	if !ok {
		return -1
	}
	if i, ok := ps.index[k]; ok {
		return i
	}
	return -1
}

// IndexText is Index of f, whose text (expr.Key) is key, memoised by that
// text: the posts ask it for the same weakest preconditions again and
// again, and normalising them was a seventh of a run.
func (ps *Preds) IndexText(f expr.Expr, key string) int {
	ps.mu.Lock()
	i, ok := ps.byText[key]
	ps.mu.Unlock()
	if ok {
		return i
	}
	i = ps.Index(f)
	ps.mu.Lock()
	if ps.byText == nil || len(ps.byText) >= 1<<16 {
		ps.byText = map[string]int{}
	}
	ps.byText[key] = i
	ps.mu.Unlock()
	return i
}

// Clone returns a copy of ps that grows on its own: predicates added to
// one are not in the other. The predicates themselves are shared (they do
// not change).
func (ps *Preds) Clone() *Preds {
	c := &Preds{list: make([]*Pred, len(ps.list)), index: make(map[string]int, len(ps.index))}
	copy(c.list, ps.list)
	for k, v := range ps.index {
		c.index[k] = v
	}
	return c
}

// Add inserts f unless an equal predicate (after normalisation of linear
// atoms) or a constant is there; it reports whether f was new.
func (ps *Preds) Add(f expr.Expr) bool {
	f, k, ok := expr.Normal(f)
	if !ok {
		return false
	}
	if _, ok := ps.index[k]; ok {
		return false
	}
	vars := map[string]bool{}
	for _, v := range expr.Vars(f) {
		vars[v] = true
	}
	ps.index[k] = len(ps.list)
	ps.mu.Lock()
	ps.byText = nil
	ps.mu.Unlock()
	ps.list = append(ps.list, &Pred{F: f, Key: k, Vars: vars, notF: expr.Not(f)})
	return true
}

// Cube is a conjunction of predicate literals: Cube[i] is +1 when predicate
// i holds, -1 when it does not, 0 when unknown. Indices past the end are
// unknown.
type Cube []int8

// Key encodes the cube (trailing unknowns do not matter).
func (c Cube) Key() string {
	n := len(c)
	for n > 0 && c[n-1] == 0 {
		n--
	}
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		b[i] = byte(c[i] + 1)
	}
	return string(b)
}

// Implies reports whether c has every literal of d, so that the states of c
// are among those of d (c ⊑ d).
func (c Cube) Implies(d Cube) bool {
	for i, v := range d {
		if v == 0 {
			continue
		}
		if i >= len(c) || c[i] != v {
			return false
		}
	}
	return true
}

// formula returns the cube as a conjunction over ps, with the explicit
// values of sub (nil: none) substituted into the predicates.
func (c Cube) formula(ps *Preds, sub func(string) expr.Expr) expr.Expr {
	var lits []expr.Expr
	for i, v := range c {
		switch v {
		case 1:
			lits = append(lits, rename(ps.list[i].F, sub))
		case -1:
			if f := rename(ps.list[i].F, sub); f != ps.list[i].F {
				lits = append(lits, expr.Not(f))
			} else {
				lits = append(lits, ps.list[i].Not())
			}
		}
	}
	return expr.And(lits...)
}

// String prints the literals of c.
func (c Cube) String(ps *Preds) string {
	var parts []string
	for i, v := range c {
		switch v {
		case 1:
			parts = append(parts, ps.list[i].F.String())
		case -1:
			parts = append(parts, "!"+ps.list[i].F.String())
		}
	}
	if len(parts) == 0 {
		return "true"
	}
	return strings.Join(parts, " && ")
}

// Exprs returns the predicates as formulas.
func (ps *Preds) Exprs() []expr.Expr {
	out := make([]expr.Expr, len(ps.list))
	for i, p := range ps.list {
		out[i] = p.F
	}
	return out
}
