package smt

import (
	"testing"

	. "fencer/smt/expr"
)

func TestSmoke(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	x, y := V("x"), V("y")
	r, err := c.Sat(And(Lt(x, y), Lt(y, x)))
	t.Log(r, err)
	s, _ := c.NewSolver()
	s.Assert(Lt(x, y), Eq(Div(x, N(2)), N(-3)))
	r, err = s.Check()
	m, err2 := s.Model()
	t.Log(r, err, err2)
	xv, _ := m.Value("x")
	yv, _ := m.Value("y")
	t.Log(xv, yv)
	steps := []Expr{Eq(V("x0"), N(0)), Eq(V("y0"), N(0)), Eq(V("x1"), Add(V("x0"), N(1))), Eq(V("y1"), Add(V("y0"), N(1))), Ne(V("x1"), V("y1"))}
	itps, res, err := c.Interpolate(steps, 0)
	t.Log(itps, res, err)
	f, err := c.Format(Eq(Mod(x, N(3)), N(1)))
	t.Log(f, err)
	e, err := c.Simplify(Eq(Mod(x, N(3)), N(1)))
	t.Log(e, err)
	_, err = c.Sat(&App{Op: OpAdd, Args: []Expr{True, N(1)}})
	t.Log(err)
}
