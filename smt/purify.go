package smt

import (
	"fmt"

	"fencer/expr"
)

// purifyDivMod returns a formula equivalent to f (up to the fresh
// variables) without Div and Mod: each distinct t / d and t % d (d a
// constant) becomes fresh variables q and r with
//
//	t = d·q + r,  t >= 0 → 0 <= r < |d|,  t < 0 → -|d| < r <= 0
//
// which is C's truncating division. Spacer gets stuck on Z3's div and mod
// ("Stuck on a lemma") where it handles these linear constraints. The fresh
// names are tag + "!q" + k and tag + "!r" + k; tag must make them unlike
// any program variable.
func purifyDivMod(f expr.Expr, tag string) expr.Expr {
	p := &purifier{tag: tag, memo: map[*expr.App]expr.Expr{}, pairs: map[string][2]expr.Expr{}}
	g := p.walk(f)
	if len(p.side) == 0 {
		return f
	}
	return expr.And(append([]expr.Expr{g}, p.side...)...)
}

type purifier struct {
	tag   string
	memo  map[*expr.App]expr.Expr
	pairs map[string][2]expr.Expr // key of (t, d) → q, r
	side  []expr.Expr
}

func (p *purifier) walk(e expr.Expr) expr.Expr {
	a, ok := e.(*expr.App)
	if !ok {
		return e
	}
	if r, ok := p.memo[a]; ok {
		return r
	}
	args := make([]expr.Expr, len(a.Args))
	changed := false
	for i, x := range a.Args {
		args[i] = p.walk(x)
		changed = changed || args[i] != x
	}
	var out expr.Expr = a
	if changed {
		out = &expr.App{Op: a.Op, Args: args}
	}
	if d, isConst := expr.IntValue(args[len(args)-1]); (a.Op == expr.OpDiv || a.Op == expr.OpMod) && isConst && d != 0 {
		qr := p.pair(args[0], d)
		if a.Op == expr.OpDiv {
			out = qr[0]
		} else {
			out = qr[1]
		}
	}
	p.memo[a] = out
	return out
}

func (p *purifier) pair(t expr.Expr, d int64) [2]expr.Expr {
	key := expr.Key(t) + "/" + fmt.Sprint(d)
	if qr, ok := p.pairs[key]; ok {
		return qr
	}
	k := len(p.pairs)
	q := expr.V(fmt.Sprintf("%s!q%d", p.tag, k))
	r := expr.V(fmt.Sprintf("%s!r%d", p.tag, k))
	ad := d
	if ad < 0 {
		ad = -ad
	}
	p.side = append(p.side,
		expr.Eq(t, expr.Add(expr.Mul(expr.N(d), q), r)),
		expr.Implies(expr.Ge(t, expr.Zero), expr.And(expr.Ge(r, expr.Zero), expr.Lt(r, expr.N(ad)))),
		expr.Implies(expr.Lt(t, expr.Zero), expr.And(expr.Gt(r, expr.N(-ad)), expr.Le(r, expr.Zero))),
	)
	qr := [2]expr.Expr{q, r}
	p.pairs[key] = qr
	return qr
}
