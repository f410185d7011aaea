package kabs

import (
	"sort"
	"strings"

	"fencer/expr"
)

// Trans is the data part of one abstract transition, a relation over X ∪ X'
// given in a form that makes weakest preconditions cheap:
//
//	∃E. Guard(X, E) ∧ ⋀_{(v,e) ∈ Assign} v' = e(X, E) ∧ ⋀_{v ∉ Assign} v' = v
//
// Assignments are parallel. E (Exists) are names local to the step, never
// variables of X: a havoc `r = *` is r' = e with e in E. In a path formula
// each step's E must be renamed apart.
type Trans struct {
	Guard  expr.Expr // over X ∪ E; true when the step has no condition
	Assign []Assign  // sorted by variable
	Exists []string  // sorted
	key    string
}

// Assign is one parallel assignment v' = Val.
type Assign struct {
	Var string
	Val expr.Expr
}

// Identity is the transition that changes nothing.
var Identity = newTrans(expr.True, nil, nil)

func newTrans(guard expr.Expr, as []Assign, exists []string) *Trans {
	sort.Slice(as, func(i, j int) bool { return as[i].Var < as[j].Var })
	sort.Strings(exists)
	t := &Trans{Guard: guard, Assign: as, Exists: exists}
	var b strings.Builder
	b.WriteString(expr.Key(guard))
	for _, a := range as {
		b.WriteString("|" + a.Var + ":=" + expr.Key(a.Val))
	}
	for _, h := range exists {
		b.WriteString("|E" + h)
	}
	t.key = b.String()
	return t
}

// Key identifies the transition: equal keys, equal relations.
func (t *Trans) Key() string { return t.key }

// Assigns reports whether v is assigned.
func (t *Trans) Assigns(v string) bool {
	for _, a := range t.Assign {
		if a.Var == v {
			return true
		}
	}
	return false
}

// WP returns p[v := e for (v, e) in Assign]: for X and E satisfying Guard,
// p holds after the step exactly when WP(p) holds before it.
func (t *Trans) WP(p expr.Expr) expr.Expr {
	if len(t.Assign) == 0 {
		return p
	}
	return expr.Rename(p, func(n string) expr.Expr {
		for _, a := range t.Assign {
			if a.Var == n {
				return a.Val
			}
		}
		return nil
	})
}

// builder composes a sequence of micro-steps (for an atomic block) into one
// Trans by symbolic execution.
type builder struct {
	cur   map[string]expr.Expr // current symbolic value of each changed variable
	guard []expr.Expr
	havoc int
	fresh func(int) string
}

func newBuilder(fresh func(int) string) *builder {
	return &builder{cur: map[string]expr.Expr{}, fresh: fresh}
}

func (b *builder) subst(e expr.Expr) expr.Expr {
	return expr.Rename(e, func(n string) expr.Expr { return b.cur[n] })
}

func (b *builder) assign(v string, e expr.Expr) { b.cur[v] = b.subst(e) }

func (b *builder) assume(e expr.Expr) { b.guard = append(b.guard, b.subst(e)) }

// havocVar gives v a value chosen freely by the step (a new name in E).
func (b *builder) havocVar(v string) {
	b.cur[v] = expr.V(b.fresh(b.havoc))
	b.havoc++
}

func (b *builder) build() *Trans {
	var as []Assign
	var hv []string
	for i := 0; i < b.havoc; i++ {
		hv = append(hv, b.fresh(i))
	}
	for v, e := range b.cur {
		if ve, ok := e.(expr.Var); ok && ve.Name == v {
			continue
		}
		as = append(as, Assign{v, e})
	}
	return newTrans(expr.And(b.guard...), as, hv)
}
