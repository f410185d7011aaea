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

// WithoutDeadInits returns sys with every local whose initial value is
// nondeterministic but dead at the start of its process (written before
// any read on every path, as a Memorax register "$r = * : Z" that the
// first statement reads into) started at one fixed value of its range
// instead (Lo when Ranged, else 0); sys itself when there is none.
//
// The two systems have the same runs up to that initial value: a run
// from any initial value of such a local takes the same steps from the
// fixed one (nothing reads it before it is written, and a bad state is
// a set of locations or a failed assert, which reads what it tests), so
// they reach the same bad states, and a run of the result is a run of
// sys. The analyses that a nondeterministic value defeats (finite
// domains, the order view of counters) then see a constant.
func (s *System) WithoutDeadInits() *System {
	var out *System
	for i, p := range s.Procs {
		var live map[string]bool
		for j, v := range p.Locals {
			if !v.Init.Nondet {
				continue
			}
			if live == nil {
				live = p.Live()[0]
			}
			if live[v.Name] {
				continue
			}
			if out == nil {
				c := *s
				c.Procs = append([]*Process(nil), s.Procs...)
				out = &c
			}
			if out.Procs[i] == p {
				q := *p
				q.Locals = append([]VarDecl(nil), p.Locals...)
				out.Procs[i] = &q
			}
			fixed := int64(0)
			if v.Init.Ranged {
				fixed = v.Init.Lo
			}
			out.Procs[i].Locals[j].Init = Init{Value: fixed}
		}
	}
	if out == nil {
		return s
	}
	return out
}
