package cs

import (
	"fencer/expr"
)

// Live returns, for each location of p, the set of local variables whose
// current value may still be read on some path from there (live
// variables). A local not in Live()[l] can be forgotten at l: nothing that
// follows depends on its value.
func (p *Process) Live() []map[string]bool {
	live := make([]map[string]bool, p.NumLocs)
	for i := range live {
		live[i] = map[string]bool{}
	}
	for changed := true; changed; {
		changed = false
		for i := len(p.Edges) - 1; i >= 0; i-- {
			e := p.Edges[i]
			in := liveBefore(e.Op, live[e.To])
			for v := range in {
				if !live[e.From][v] {
					live[e.From][v] = true
					changed = true
				}
			}
		}
	}
	return live
}

// liveBefore is (after \ def(op)) ∪ use(op).
func liveBefore(op Op, after map[string]bool) map[string]bool {
	if op.Kind == OpAtomic {
		cur := after
		for i := len(op.Body) - 1; i >= 0; i-- {
			cur = liveBefore(op.Body[i], cur)
		}
		return cur
	}
	out := make(map[string]bool, len(after)+2)
	for v := range after {
		out[v] = true
	}
	switch op.Kind {
	case OpRead, OpHavoc:
		delete(out, op.Local)
	case OpAssign:
		delete(out, op.Local)
	}
	if op.Val != nil {
		for _, v := range expr.Vars(op.Val) {
			out[v] = true
		}
	}
	return out
}
