package cegar

import (
	"strconv"
	"strings"

	"fencer/expr"
	"fencer/kabs"
	"fencer/memmodel"
)

// ssa is the path formula of a sequence of transitions in SSA form: A[0] is
// the initial condition over version 0 of every variable, A[i] the i-th step.
type ssa struct {
	A []expr.Expr
}

// ssaName is version v of variable x; step-local names (E) get the step
// number instead.
func ssaName(x string, v int) string { return x + "@" + strconv.Itoa(v) }

// unSSA strips the version of an SSA name.
func unSSA(n string) string {
	if i := strings.LastIndexByte(n, '@'); i >= 0 {
		return n[:i]
	}
	return n
}

func buildSSA(init expr.Expr, ts []*kabs.Trans) *ssa {
	ver := map[string]int{}
	cur := func(n string) expr.Expr { return expr.V(ssaName(n, ver[n])) }
	out := &ssa{A: []expr.Expr{expr.Rename(init, cur)}}
	for i, t := range ts {
		local := map[string]bool{}
		for _, e := range t.Exists {
			local[e] = true
		}
		rn := func(n string) expr.Expr {
			if local[n] {
				return expr.V(existsValue(n, i+1))
			}
			return cur(n)
		}
		conj := []expr.Expr{expr.Rename(t.Guard, rn)}
		vals := make([]expr.Expr, len(t.Assign))
		for j, a := range t.Assign {
			vals[j] = expr.Rename(a.Val, rn)
		}
		for j, a := range t.Assign {
			ver[a.Var]++
			conj = append(conj, expr.Eq(cur(a.Var), vals[j]))
		}
		out.A = append(out.A, expr.And(conj...))
	}
	return out
}

// existsValue names the SSA variable holding the choice of step i (1-based)
// for step-local name e.
func existsValue(e string, i int) string { return e + "@s" + strconv.Itoa(i) }

// concreteTrace turns a satisfying assignment of the exact path formula into
// a trace of the explicit semantics: the initial values and, per step, the
// process, edge or flushed variable and the havocked value.
func concreteTrace(c *memmodel.Concrete, steps []kabs.AStep, value func(string) (int64, bool)) *memmodel.Trace {
	tr := &memmodel.Trace{}
	for _, d := range c.Decls() {
		v, ok := value(ssaName(d.Name, 0))
		if !ok {
			v = d.Init.Value
		}
		tr.Init = append(tr.Init, v)
	}
	for i, st := range steps {
		s := memmodel.Step{Proc: st.Proc, Edge: st.Edge, Var: st.Var}
		if v, ok := value(existsValue(kabs.StepVar(0), i+1)); ok {
			s.Val = v
		}
		tr.Steps = append(tr.Steps, s)
	}
	return tr
}
