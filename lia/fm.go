package lia

import (
	"encoding/binary"
	"math/bits"

	"fencer/expr"
	"fencer/smt/answer"
)

// maxCons bounds the constraints of one elimination step: Fourier–Motzkin
// can square their number at every variable.
const maxCons = 512

// eliminator decides a conjunction of linear constraints over the integers
// by Fourier–Motzkin elimination with integer tightening:
//
//   - Unsat is exact: every derived constraint (a positive combination of
//     two constraints, then divided by the gcd of its coefficients with the
//     constant rounded down) is implied over the integers, and a derived
//     0 ≤ b with b < 0 is a contradiction.
//   - Sat comes with a model built by back-substitution, each variable
//     taking an integer between the bounds the already chosen variables
//     leave it. If some interval holds no integer (the rational shadow is
//     not the integer one), or a number overflows, or the constraints
//     multiply past maxCons, the answer is Unknown.
type eliminator struct {
	model  []int64 // by variable index
	levels [][]cons
	order  []int32
	count  [][2]int32 // per variable: constraints with a > 0, with a < 0
	key    []byte
	seen   map[string]int
}

func (e *eliminator) solve(in []cons, nvars int) answer.Answer {
	e.levels, e.order = e.levels[:0], e.order[:0]
	if len(e.count) < nvars {
		e.count = make([][2]int32, nvars)
	}
	if e.seen == nil {
		e.seen = map[string]int{}
	}
	cur, ok := e.dedupe(in)
	if !ok {
		return answer.Unsat
	}
	for {
		v, found := e.pick(cur)
		if !found {
			break
		}
		e.levels = append(e.levels, cur)
		e.order = append(e.order, v)
		next, ans := e.eliminate(cur, v)
		if ans != answer.Sat {
			return ans
		}
		cur = next
	}
	return e.buildModel(nvars)
}

// dedupe normalises the constraints and keeps the tightest of each left-hand
// side; ok is false on a constant contradiction.
func (e *eliminator) dedupe(in []cons) ([]cons, bool) {
	clear(e.seen)
	out := make([]cons, 0, len(in))
	for _, c := range in {
		c = normalise(c)
		if len(c.ts) == 0 {
			if c.b < 0 {
				return nil, false
			}
			continue
		}
		out = e.add(out, c)
	}
	return out, true
}

// add appends c to out unless a constraint with the same left-hand side is
// there, in which case the smaller bound is kept.
func (e *eliminator) add(out []cons, c cons) []cons {
	e.key = e.key[:0]
	for _, t := range c.ts {
		e.key = binary.AppendVarint(e.key, int64(t.v))
		e.key = binary.AppendVarint(e.key, t.a)
	}
	if i, ok := e.seen[string(e.key)]; ok {
		if c.b < out[i].b {
			out[i].b = c.b
		}
		return out
	}
	e.seen[string(e.key)] = len(out)
	return append(out, c)
}

// pick chooses the variable whose elimination adds the fewest constraints.
func (e *eliminator) pick(cs []cons) (int32, bool) {
	var vars []int32
	for _, c := range cs {
		for _, t := range c.ts {
			k := &e.count[t.v]
			if k[0] == 0 && k[1] == 0 {
				vars = append(vars, t.v)
			}
			if t.a > 0 {
				k[0]++
			} else {
				k[1]++
			}
		}
	}
	best, bestCost := int32(-1), 0
	for _, v := range vars {
		k := e.count[v]
		cost := int(k[0])*int(k[1]) - int(k[0]) - int(k[1])
		if best < 0 || cost < bestCost || cost == bestCost && v < best {
			best, bestCost = v, cost
		}
		e.count[v] = [2]int32{}
	}
	return best, best >= 0
}

// eliminate returns the constraints of cs without v and the combinations of
// each upper and lower bound on v.
func (e *eliminator) eliminate(cs []cons, v int32) ([]cons, answer.Answer) {
	var pos, neg []cons
	clear(e.seen)
	next := make([]cons, 0, len(cs))
	for _, c := range cs {
		switch a := coef(c, v); {
		case a > 0:
			pos = append(pos, c)
		case a < 0:
			neg = append(neg, c)
		default:
			next = e.add(next, c)
		}
	}
	for _, p := range pos {
		for _, n := range neg {
			c, ok := combine(p, n, v)
			if !ok {
				return nil, answer.Unknown
			}
			c = normalise(c)
			if len(c.ts) == 0 {
				if c.b < 0 {
					return nil, answer.Unsat
				}
				continue
			}
			next = e.add(next, c)
			if len(next) > maxCons {
				return nil, answer.Unknown
			}
		}
	}
	return next, answer.Sat
}

// buildModel chooses the variables in the reverse order of elimination.
func (e *eliminator) buildModel(nvars int) answer.Answer {
	if cap(e.model) < nvars {
		e.model = make([]int64, nvars)
	}
	e.model = e.model[:nvars]
	clear(e.model)
	for i := len(e.order) - 1; i >= 0; i-- {
		v := e.order[i]
		var lo, hi int64
		hasLo, hasHi := false, false
		for _, c := range e.levels[i] {
			a := coef(c, v)
			if a == 0 {
				continue
			}
			// a·v ≤ r with r = b - Σ (other terms at their values)
			r := c.b
			for _, t := range c.ts {
				if t.v == v {
					continue
				}
				p, ok := mul(t.a, e.model[t.v])
				if !ok {
					return answer.Unknown
				}
				if r, ok = sub(r, p); !ok {
					return answer.Unknown
				}
			}
			if a > 0 {
				if b := expr.FloorDiv(r, a); !hasHi || b < hi {
					hi, hasHi = b, true
				}
			} else if b := expr.CeilDiv(r, a); !hasLo || b > lo {
				lo, hasLo = b, true
			}
		}
		var x int64
		switch {
		case hasLo && hasHi && lo > hi:
			return answer.Unknown
		case hasLo && lo > 0:
			x = lo
		case hasHi && hi < 0:
			x = hi
		}
		e.model[v] = x
	}
	return answer.Sat
}

func coef(c cons, v int32) int64 {
	for _, t := range c.ts {
		if t.v == v {
			return t.a
		}
	}
	return 0
}

// combine adds |a_n|·p and a_p·n, in which v cancels.
func combine(p, n cons, v int32) (cons, bool) {
	fp, fn := -coef(n, v), coef(p, v)
	out := cons{ts: make([]term, 0, len(p.ts)+len(n.ts)-2)}
	i, j := 0, 0
	for i < len(p.ts) || j < len(n.ts) {
		var t term
		switch {
		case j >= len(n.ts) || i < len(p.ts) && p.ts[i].v < n.ts[j].v:
			a, ok := mul(fp, p.ts[i].a)
			if !ok {
				return cons{}, false
			}
			t = term{p.ts[i].v, a}
			i++
		case i >= len(p.ts) || n.ts[j].v < p.ts[i].v:
			a, ok := mul(fn, n.ts[j].a)
			if !ok {
				return cons{}, false
			}
			t = term{n.ts[j].v, a}
			j++
		default:
			a1, ok1 := mul(fp, p.ts[i].a)
			a2, ok2 := mul(fn, n.ts[j].a)
			a, ok3 := add(a1, a2)
			if !ok1 || !ok2 || !ok3 {
				return cons{}, false
			}
			t = term{p.ts[i].v, a}
			i++
			j++
		}
		if t.a != 0 {
			out.ts = append(out.ts, t)
		}
	}
	b1, ok1 := mul(fp, p.b)
	b2, ok2 := mul(fn, n.b)
	b, ok3 := add(b1, b2)
	if !ok1 || !ok2 || !ok3 {
		return cons{}, false
	}
	out.b = b
	return out, true
}

// normalise divides by the gcd of the coefficients, rounding the bound
// down: over the integers Σ g·a·x ≤ b ⇔ Σ a·x ≤ ⌊b/g⌋.
func normalise(c cons) cons {
	var g int64
	for _, t := range c.ts {
		g = expr.GCD(g, expr.Abs(t.a))
	}
	if g <= 1 {
		return c
	}
	out := cons{ts: make([]term, len(c.ts)), b: expr.FloorDiv(c.b, g)}
	for i, t := range c.ts {
		out.ts[i] = term{t.v, t.a / g}
	}
	return out
}

func mul(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(expr.Abs(a)), uint64(expr.Abs(b)))
	if hi != 0 || lo > 1<<62 || a == -1<<63 || b == -1<<63 {
		return 0, false
	}
	if (a < 0) != (b < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

func add(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) || s > 1<<62 || s < -(1<<62) {
		return 0, false
	}
	return s, true
}

func sub(a, b int64) (int64, bool) {
	if b == -1<<63 {
		return 0, false
	}
	return add(a, -b)
}
