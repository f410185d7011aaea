package lia

import "fencer/smt/answer"

// maxChecks bounds the theory checks of one query; beyond it the query goes
// to the fallback (a formula with many disjunctions is Z3's business).
const maxChecks = 256

// search decides a conjunction of nodes by depth-first case splitting over
// its disjunctions, deciding each conjunction of literals by elimination.
type search struct {
	nvars  int
	checks int
	fm     eliminator
	model  []int64 // by variable index, of the last satisfiable branch
}

// run decides lits ∧ todo. On Sat, s.model holds a model.
func (s *search) run(lits []cons, todo []*node) answer.Answer {
	var ors []*node
	stack := append([]*node(nil), todo...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.kind {
		case kTrue:
		case kFalse:
			return answer.Unsat
		case kLit:
			lits = append(lits, n.lit)
		case kAnd:
			stack = append(stack, n.kids...)
		case kOr:
			ors = append(ors, n)
		}
	}
	s.checks++
	if s.checks > maxChecks {
		return answer.Unknown
	}
	litsSat := false
	switch s.fm.solve(lits, s.nvars) {
	case answer.Unsat:
		return answer.Unsat
	case answer.Sat:
		// The model of the literals may satisfy the disjunctions too.
		violated := -1
		for i, o := range ors {
			if !o.holds(s.fm.model) {
				violated = i
				break
			}
		}
		if violated < 0 {
			s.model = append(s.model[:0], s.fm.model...)
			return answer.Sat
		}
		ors[0], ors[violated] = ors[violated], ors[0]
		litsSat = true
	case answer.Unknown:
		if len(ors) == 0 {
			return answer.Unknown
		}
	}
	// Split on a disjunction the model violates, else on the one with the
	// fewest cases.
	best := 0
	if !litsSat {
		for i, o := range ors {
			if len(o.kids) < len(ors[best].kids) {
				best = i
			}
		}
	}
	rest := make([]*node, 0, len(ors))
	rest = append(rest, ors[:best]...)
	rest = append(rest, ors[best+1:]...)
	unknown := false
	for _, kid := range ors[best].kids {
		branch := append(rest[:len(rest):len(rest)], kid)
		switch s.run(lits[:len(lits):len(lits)], branch) {
		case answer.Sat:
			return answer.Sat
		case answer.Unknown:
			unknown = true
		}
		if s.checks > maxChecks {
			return answer.Unknown
		}
	}
	if unknown {
		return answer.Unknown
	}
	return answer.Unsat
}

// holds evaluates n under a model by variable index.
func (n *node) holds(model []int64) bool {
	switch n.kind {
	case kTrue:
		return true
	case kFalse:
		return false
	case kLit:
		var sum int64
		for _, t := range n.lit.ts {
			p, ok := mul(t.a, model[t.v])
			if !ok {
				return false
			}
			if sum, ok = add(sum, p); !ok {
				return false
			}
		}
		return sum <= n.lit.b
	case kAnd:
		for _, k := range n.kids {
			if !k.holds(model) {
				return false
			}
		}
		return true
	}
	for _, k := range n.kids {
		if k.holds(model) {
			return true
		}
	}
	return false
}
