package lia

import "fencer/expr"

// term is a·x for the variable of index v.
type term struct {
	v int32
	a int64
}

// cons is the constraint Σ a·x ≤ b, its terms sorted by variable, no
// coefficient zero.
type cons struct {
	ts []term
	b  int64
}

// maxConst bounds the coefficients and constants we take, so that the
// products of elimination stay far from overflow (which is checked too).
const maxConst = 1 << 30

type kind uint8

const (
	kTrue kind = iota
	kFalse
	kLit
	kAnd
	kOr
)

// node is a formula in negation normal form over difference constraints.
type node struct {
	kind kind
	lit  cons
	kids []*node
	vars []int32 // its variables, once computed (nodes are memoised and shared)
}

var (
	nodeTrue  = &node{kind: kTrue}
	nodeFalse = &node{kind: kFalse}
)

func junction(k kind, kids []*node) *node {
	unit, zero := nodeTrue, nodeFalse // and: drop true, false absorbs
	if k == kOr {
		unit, zero = nodeFalse, nodeTrue
	}
	out := kids[:0:0]
	for _, n := range kids {
		switch {
		case n.kind == unit.kind:
			continue
		case n.kind == zero.kind:
			return zero
		case n.kind == k:
			out = append(out, n.kids...)
		default:
			out = append(out, n)
		}
	}
	switch len(out) {
	case 0:
		return unit
	case 1:
		return out[0]
	}
	return &node{kind: k, kids: out}
}

// translator turns formulas into nodes, numbering variables as it meets
// them.
type translator struct {
	index map[string]int32
	names []string // by index
	// memo holds the translations of compound formulas by identity: the
	// abstraction asserts the same predicate terms again and again.
	memo map[memoKey]*node
}

type memoKey struct {
	f   *expr.App
	neg bool
}

// memoLimit bounds the memo (entries); it is emptied when full.
const memoLimit = 1 << 16

func newTranslator() *translator {
	return &translator{index: map[string]int32{}, memo: map[memoKey]*node{}}
}

func (t *translator) varIndex(name string) int32 {
	if i, ok := t.index[name]; ok {
		return i
	}
	i := int32(len(t.names))
	t.index[name] = i
	t.names = append(t.names, name)
	return i
}

// formula translates f, negated if neg. ok is false when f leaves the
// fragment.
func (t *translator) formula(f expr.Expr, neg bool) (*node, bool) {
	a, ok := f.(*expr.App)
	if !ok {
		return t.translate(f, neg)
	}
	k := memoKey{a, neg}
	if n, hit := t.memo[k]; hit {
		return n, n != nil
	}
	n, ok := t.translate(f, neg)
	if len(t.memo) >= memoLimit {
		clear(t.memo)
	}
	t.memo[k] = n // nil: outside the fragment
	return n, ok
}

func (t *translator) translate(f expr.Expr, neg bool) (*node, bool) {
	switch x := f.(type) {
	case expr.Bool:
		if x.V != neg {
			return nodeTrue, true
		}
		return nodeFalse, true
	case *expr.App:
		switch x.Op {
		case expr.OpNot:
			return t.formula(x.Args[0], !neg)
		case expr.OpAnd, expr.OpOr:
			k := kAnd
			if (x.Op == expr.OpOr) != neg {
				k = kOr
			}
			kids := make([]*node, 0, len(x.Args))
			for _, a := range x.Args {
				n, ok := t.formula(a, neg)
				if !ok {
					return nil, false
				}
				kids = append(kids, n)
			}
			return junction(k, kids), true
		case expr.OpImplies: // a ⇒ b is ¬a ∨ b; negated, a ∧ ¬b
			a, ok1 := t.formula(x.Args[0], !neg)
			b, ok2 := t.formula(x.Args[1], neg)
			if !ok1 || !ok2 {
				return nil, false
			}
			if neg {
				return junction(kAnd, []*node{a, b}), true
			}
			return junction(kOr, []*node{a, b}), true
		case expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe:
			op := x.Op
			if neg {
				op = negated[op]
			}
			return t.atom(op, x.Args[0], x.Args[1])
		}
	}
	return nil, false
}

var negated = map[expr.Op]expr.Op{
	expr.OpEq: expr.OpNe, expr.OpNe: expr.OpEq,
	expr.OpLt: expr.OpGe, expr.OpGe: expr.OpLt,
	expr.OpLe: expr.OpGt, expr.OpGt: expr.OpLe,
}

// atom translates l op r.
func (t *translator) atom(op expr.Op, l, r expr.Expr) (*node, bool) {
	// An if-then-else inside the comparison: split on its condition.
	for side, term := range []expr.Expr{l, r} {
		c, th, el, found := splitIte(term)
		if !found {
			continue
		}
		pos, ok1 := t.formula(c, false)
		negc, ok2 := t.formula(c, true)
		var a, b *node
		var ok3, ok4 bool
		if side == 0 {
			a, ok3 = t.atom(op, th, r)
			b, ok4 = t.atom(op, el, r)
		} else {
			a, ok3 = t.atom(op, l, th)
			b, ok4 = t.atom(op, l, el)
		}
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil, false
		}
		return junction(kOr, []*node{
			junction(kAnd, []*node{pos, a}),
			junction(kAnd, []*node{negc, b}),
		}), true
	}
	if op == expr.OpNe {
		a, ok1 := t.atom(expr.OpLt, l, r)
		b, ok2 := t.atom(expr.OpGt, l, r)
		if !ok1 || !ok2 {
			return nil, false
		}
		return junction(kOr, []*node{a, b}), true
	}
	lin, ok := expr.Linearize(&expr.App{Op: op, Args: []expr.Expr{l, r}})
	if !ok {
		return nil, false
	}
	if len(lin.Coef) == 0 {
		if lin.K <= 0 && (lin.Rel == expr.OpLe || lin.K == 0) {
			return nodeTrue, true
		}
		return nodeFalse, true
	}
	le, ok := t.cons(lin.Coef, lin.K, 1)
	if !ok {
		return nil, false
	}
	if lin.Rel == expr.OpLe {
		return &node{kind: kLit, lit: le}, true
	}
	ge, ok := t.cons(lin.Coef, lin.K, -1)
	if !ok {
		return nil, false
	}
	return &node{kind: kAnd, kids: []*node{{kind: kLit, lit: le}, {kind: kLit, lit: ge}}}, true
}

// cons turns sign·(Σ coef·x + k) ≤ 0 into Σ (sign·coef)·x ≤ -sign·k.
func (t *translator) cons(coef map[string]int64, k, sign int64) (cons, bool) {
	if k > maxConst || k < -maxConst {
		return cons{}, false
	}
	c := cons{ts: make([]term, 0, len(coef)), b: -sign * k}
	for name, a := range coef {
		if a > maxConst || a < -maxConst {
			return cons{}, false
		}
		c.ts = append(c.ts, term{t.varIndex(name), sign * a})
	}
	sortTerms(c.ts)
	return c, true
}

func sortTerms(ts []term) {
	for i := 1; i < len(ts); i++ { // insertion sort: a handful of terms
		for j := i; j > 0 && ts[j].v < ts[j-1].v; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// splitIte finds the first if-then-else in the integer term e and returns
// its condition and e with it replaced by each branch.
func splitIte(e expr.Expr) (cond, then, els expr.Expr, found bool) {
	a, ok := e.(*expr.App)
	if !ok {
		return nil, nil, nil, false
	}
	if a.Op == expr.OpIte {
		return a.Args[0], a.Args[1], a.Args[2], true
	}
	for i, arg := range a.Args {
		c, th, el, ok := splitIte(arg)
		if !ok {
			continue
		}
		withThen := append([]expr.Expr(nil), a.Args...)
		withElse := append([]expr.Expr(nil), a.Args...)
		withThen[i], withElse[i] = th, el
		return c, expr.Rebuild(a.Op, withThen), expr.Rebuild(a.Op, withElse), true
	}
	return nil, nil, nil, false
}
