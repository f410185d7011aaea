package expr

import (
	"sort"
	"strconv"
	"strings"
)

// Linear is the normal form of an atom: Σ Coef[x]·x + K  (Rel)  0, where Rel
// is OpLe or OpEq, the coefficients have no common factor and, for OpEq, the
// first non-zero coefficient (by variable name) is positive. So x - y <= 0
// and y >= x have the same Linear form and the same Key.
type Linear struct {
	Coef map[string]int64
	K    int64
	Rel  Op // OpLe or OpEq
}

// Linearize puts the comparison e (==, <=, <, >=, > over linear terms) in
// normal form. Strict comparisons become non-strict over the integers
// (x < y is x - y + 1 <= 0). It reports false for anything else (!=, boolean
// connectives, non-linear terms, overflowing coefficients).
func Linearize(e Expr) (Linear, bool) {
	a, ok := e.(*App)
	if !ok || len(a.Args) != 2 {
		return Linear{}, false
	}
	l, ok1 := linTerm(a.Args[0])
	r, ok2 := linTerm(a.Args[1])
	if !ok1 || !ok2 {
		return Linear{}, false
	}
	var d lin
	var rel Op
	switch a.Op {
	case OpEq:
		d, rel = l.sub(r), OpEq
	case OpLe:
		d, rel = l.sub(r), OpLe
	case OpLt:
		d, rel = l.sub(r), OpLe
		d.k++
	case OpGe:
		d, rel = r.sub(l), OpLe
	case OpGt:
		d, rel = r.sub(l), OpLe
		d.k++
	default:
		return Linear{}, false
	}
	if d.bad {
		return Linear{}, false
	}
	return d.normal(rel), true
}

// Key is a canonical string of the normal form.
func (l Linear) Key() string {
	names := l.names()
	var b strings.Builder
	for _, n := range names {
		b.WriteString(strconv.FormatInt(l.Coef[n], 10))
		b.WriteString("*")
		b.WriteString(n)
		b.WriteString(" + ")
	}
	b.WriteString(strconv.FormatInt(l.K, 10))
	if l.Rel == OpEq {
		b.WriteString(" = 0")
	} else {
		b.WriteString(" <= 0")
	}
	return b.String()
}

// Expr turns the normal form back into a comparison, written readably:
// variables with positive coefficients on the left.
func (l Linear) Expr() Expr {
	var lhs, rhs Expr = Zero, Zero
	for _, n := range l.names() {
		c := l.Coef[n]
		if c > 0 {
			lhs = Add(lhs, Mul(N(c), V(n)))
		} else {
			rhs = Add(rhs, Mul(N(-c), V(n)))
		}
	}
	if l.K > 0 {
		rhs = Sub(rhs, N(l.K))
	} else if l.K < 0 {
		lhs = Sub(lhs, N(-l.K))
		if v, ok := IntValue(lhs); ok && v < 0 {
			lhs = Zero
			rhs = Add(rhs, N(-v))
		}
	}
	return Cmp(l.Rel, lhs, rhs)
}

func (l Linear) names() []string {
	names := make([]string, 0, len(l.Coef))
	for n := range l.Coef {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// lin is a linear term under construction; bad marks overflow.
type lin struct {
	c   map[string]int64
	k   int64
	bad bool
}

func linTerm(e Expr) (lin, bool) {
	switch x := e.(type) {
	case Int:
		return lin{c: map[string]int64{}, k: x.V}, true
	case Var:
		return lin{c: map[string]int64{x.Name: 1}}, true
	case *App:
		switch x.Op {
		case OpAdd, OpSub:
			acc, ok := linTerm(x.Args[0])
			if !ok {
				return lin{}, false
			}
			for _, a := range x.Args[1:] {
				t, ok := linTerm(a)
				if !ok {
					return lin{}, false
				}
				if x.Op == OpAdd {
					acc = acc.add(t)
				} else {
					acc = acc.sub(t)
				}
			}
			return acc, !acc.bad
		case OpNeg:
			t, ok := linTerm(x.Args[0])
			if !ok {
				return lin{}, false
			}
			t = t.scale(-1)
			return t, !t.bad
		case OpMul:
			l, ok1 := linTerm(x.Args[0])
			r, ok2 := linTerm(x.Args[1])
			if !ok1 || !ok2 {
				return lin{}, false
			}
			if len(l.c) == 0 {
				t := r.scale(l.k)
				return t, !t.bad
			}
			if len(r.c) == 0 {
				t := l.scale(r.k)
				return t, !t.bad
			}
		}
	}
	return lin{}, false
}

func (a lin) add(b lin) lin {
	out := lin{c: map[string]int64{}, bad: a.bad || b.bad}
	for n, v := range a.c {
		out.c[n] = v
	}
	for n, v := range b.c {
		s, ok := addOK(out.c[n], v)
		out.bad = out.bad || !ok
		if s == 0 {
			delete(out.c, n)
		} else {
			out.c[n] = s
		}
	}
	var ok bool
	out.k, ok = addOK(a.k, b.k)
	out.bad = out.bad || !ok
	return out
}

func (a lin) sub(b lin) lin { return a.add(b.scale(-1)) }

func (a lin) scale(f int64) lin {
	out := lin{c: map[string]int64{}, bad: a.bad}
	for n, v := range a.c {
		p, ok := mulOK(v, f)
		out.bad = out.bad || !ok
		if p != 0 {
			out.c[n] = p
		}
	}
	var ok bool
	out.k, ok = mulOK(a.k, f)
	out.bad = out.bad || !ok
	return out
}

// normal divides by the gcd of the coefficients (rounding the constant so the
// integer solutions stay the same) and fixes the sign of equalities.
func (a lin) normal(rel Op) Linear {
	g := int64(0)
	for _, v := range a.c {
		g = GCD(g, Abs(v))
	}
	out := Linear{Coef: map[string]int64{}, K: a.k, Rel: rel}
	if g == 0 { // constant comparison
		return out
	}
	for n, v := range a.c {
		out.Coef[n] = v / g
	}
	if rel == OpLe {
		out.K = CeilDiv(a.k, g) // Σ c x + k <= 0  ⇔  Σ (c/g) x + ⌈k/g⌉ <= 0
	} else {
		if a.k%g != 0 { // no integer solution: keep it unsatisfiable
			out.Coef = map[string]int64{}
			out.K = 1
			return out
		}
		out.K = a.k / g
		if out.Coef[out.names()[0]] < 0 {
			for n, v := range out.Coef {
				out.Coef[n] = -v
			}
			out.K = -out.K
		}
	}
	return out
}

// GCD is the greatest common divisor of a and b (non-negative inputs).
func GCD(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Abs is |a|.
func Abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// CeilDiv is ⌈a/b⌉.
func CeilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a > 0) == (b > 0) {
		q++
	}
	return q
}

// FloorDiv is ⌊a/b⌋.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
