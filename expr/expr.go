package expr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Op is the operator of a compound node.
type Op uint8

const (
	OpAdd     Op = iota // integer +
	OpSub               // integer -
	OpMul               // integer *
	OpDiv               // integer / (C: truncates toward zero), constant divisor
	OpMod               // integer % (C: sign of the dividend), constant divisor
	OpNeg               // unary integer -
	OpIte               // if-then-else over integers: Args[0] bool, Args[1..2] int
	OpEq                // integer ==
	OpNe                // integer !=
	OpLt                // integer <
	OpLe                // integer <=
	OpGt                // integer >
	OpGe                // integer >=
	OpAnd               // boolean and, any number of arguments
	OpOr                // boolean or, any number of arguments
	OpNot               // boolean not
	OpImplies           // boolean =>
)

var opNames = [...]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%", OpNeg: "-",
	OpIte: "ite", OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">",
	OpGe: ">=", OpAnd: "&&", OpOr: "||", OpNot: "!", OpImplies: "=>",
}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// IsBool reports whether o yields a boolean.
func (o Op) IsBool() bool { return o >= OpEq }

// Expr is an integer term or a boolean formula.
type Expr interface {
	// IsBool reports whether the node is a formula.
	IsBool() bool
	String() string
	exprNode()
}

// Int is an integer constant.
type Int struct{ V int64 }

// Bool is a boolean constant.
type Bool struct{ V bool }

// Var is an integer variable, named uniquely in its system.
type Var struct{ Name string }

// App is an operator applied to arguments.
type App struct {
	Op   Op
	Args []Expr
}

func (Int) exprNode()  {}
func (Bool) exprNode() {}
func (Var) exprNode()  {}
func (*App) exprNode() {}

func (Int) IsBool() bool    { return false }
func (Bool) IsBool() bool   { return true }
func (Var) IsBool() bool    { return false }
func (a *App) IsBool() bool { return a.Op.IsBool() }

// Common constants.
var (
	True  Expr = Bool{true}
	False Expr = Bool{false}
	Zero  Expr = Int{0}
	One   Expr = Int{1}
)

func (c Int) String() string {
	if c.V < 0 {
		return "(" + strconv.FormatInt(c.V, 10) + ")"
	}
	return strconv.FormatInt(c.V, 10)
}

func (b Bool) String() string {
	if b.V {
		return "true"
	}
	return "false"
}

func (v Var) String() string { return v.Name }

func (a *App) String() string {
	switch a.Op {
	case OpNeg:
		return "-" + a.Args[0].String()
	case OpNot:
		return "!" + a.Args[0].String()
	case OpIte:
		return "(" + a.Args[0].String() + " ? " + a.Args[1].String() + " : " + a.Args[2].String() + ")"
	}
	parts := make([]string, len(a.Args))
	for i, x := range a.Args {
		parts[i] = x.String()
	}
	return "(" + strings.Join(parts, " "+a.Op.String()+" ") + ")"
}

// Key is a canonical string of e: equal keys mean structurally equal
// expressions. It is String, which prints every compound node in parentheses.
func Key(e Expr) string { return e.String() }

// N returns the constant v.
func N(v int64) Expr { return Int{v} }

// V returns the variable named name.
func V(name string) Expr { return Var{name} }

// IntValue returns the value of e if it is an integer constant.
func IntValue(e Expr) (int64, bool) {
	c, ok := e.(Int)
	return c.V, ok
}

// BoolValue returns the value of e if it is a boolean constant.
func BoolValue(e Expr) (bool, bool) {
	c, ok := e.(Bool)
	return c.V, ok
}

func app(op Op, args ...Expr) Expr { return &App{Op: op, Args: args} }

// Add returns x + y.
func Add(x, y Expr) Expr {
	a, aok := IntValue(x)
	b, bok := IntValue(y)
	switch {
	case aok && bok:
		if s, ok := addOK(a, b); ok {
			return Int{s}
		}
	case aok && a == 0:
		return y
	case bok && b == 0:
		return x
	}
	return app(OpAdd, x, y)
}

// Sub returns x - y.
func Sub(x, y Expr) Expr {
	a, aok := IntValue(x)
	b, bok := IntValue(y)
	switch {
	case aok && bok:
		if s, ok := subOK(a, b); ok {
			return Int{s}
		}
	case bok && b == 0:
		return x
	}
	return app(OpSub, x, y)
}

// Mul returns x * y.
func Mul(x, y Expr) Expr {
	a, aok := IntValue(x)
	b, bok := IntValue(y)
	switch {
	case aok && bok:
		if s, ok := mulOK(a, b); ok {
			return Int{s}
		}
	case aok && a == 1:
		return y
	case bok && b == 1:
		return x
	}
	return app(OpMul, x, y)
}

// Div returns x / y, truncating toward zero. y must be a non-zero constant.
func Div(x, y Expr) Expr {
	a, aok := IntValue(x)
	b, bok := IntValue(y)
	if aok && bok && b != 0 && !(a == minInt && b == -1) {
		return Int{a / b}
	}
	if bok && b == 1 {
		return x
	}
	return app(OpDiv, x, y)
}

// Mod returns x % y with the sign of x. y must be a non-zero constant.
func Mod(x, y Expr) Expr {
	a, aok := IntValue(x)
	b, bok := IntValue(y)
	if aok && bok && b != 0 && !(a == minInt && b == -1) {
		return Int{a % b}
	}
	return app(OpMod, x, y)
}

// Neg returns -x.
func Neg(x Expr) Expr {
	if a, ok := IntValue(x); ok && a != minInt {
		return Int{-a}
	}
	return app(OpNeg, x)
}

// Ite returns c ? x : y over integers.
func Ite(c, x, y Expr) Expr {
	if b, ok := BoolValue(c); ok {
		if b {
			return x
		}
		return y
	}
	return app(OpIte, c, x, y)
}

// Cmp returns the comparison op (OpEq..OpGe) of x and y.
func Cmp(op Op, x, y Expr) Expr {
	a, aok := IntValue(x)
	b, bok := IntValue(y)
	if aok && bok {
		return Bool{compare(op, a, b)}
	}
	return app(op, x, y)
}

func compare(op Op, a, b int64) bool {
	switch op {
	case OpEq:
		return a == b
	case OpNe:
		return a != b
	case OpLt:
		return a < b
	case OpLe:
		return a <= b
	case OpGt:
		return a > b
	case OpGe:
		return a >= b
	}
	panic("expr: not a comparison: " + op.String())
}

// Eq returns x == y.
func Eq(x, y Expr) Expr { return Cmp(OpEq, x, y) }

// Ne returns x != y.
func Ne(x, y Expr) Expr { return Cmp(OpNe, x, y) }

// Lt returns x < y.
func Lt(x, y Expr) Expr { return Cmp(OpLt, x, y) }

// Le returns x <= y.
func Le(x, y Expr) Expr { return Cmp(OpLe, x, y) }

// Gt returns x > y.
func Gt(x, y Expr) Expr { return Cmp(OpGt, x, y) }

// Ge returns x >= y.
func Ge(x, y Expr) Expr { return Cmp(OpGe, x, y) }

// And returns the conjunction of xs (true if empty), flattening nested ands.
func And(xs ...Expr) Expr { return junction(OpAnd, xs) }

// Or returns the disjunction of xs (false if empty), flattening nested ors.
func Or(xs ...Expr) Expr { return junction(OpOr, xs) }

func junction(op Op, xs []Expr) Expr {
	unit := op == OpAnd // the neutral element: true for and, false for or
	var out []Expr
	for _, x := range xs {
		if b, ok := BoolValue(x); ok {
			if b == unit {
				continue
			}
			return Bool{!unit}
		}
		if a, ok := x.(*App); ok && a.Op == op {
			out = append(out, a.Args...)
			continue
		}
		out = append(out, x)
	}
	switch len(out) {
	case 0:
		return Bool{unit}
	case 1:
		return out[0]
	}
	return app(op, out...)
}

// Not returns !x, removing a double negation.
func Not(x Expr) Expr {
	if b, ok := BoolValue(x); ok {
		return Bool{!b}
	}
	if a, ok := x.(*App); ok && a.Op == OpNot {
		return a.Args[0]
	}
	return app(OpNot, x)
}

// Implies returns x => y.
func Implies(x, y Expr) Expr {
	if b, ok := BoolValue(x); ok {
		if b {
			return y
		}
		return True
	}
	return app(OpImplies, x, y)
}

// Conjuncts returns the top-level conjuncts of f, nested conjunctions
// flattened, in order; true gives none.
func Conjuncts(f Expr) []Expr {
	return appendConjuncts(nil, f)
}

func appendConjuncts(out []Expr, f Expr) []Expr {
	if a, ok := f.(*App); ok && a.Op == OpAnd {
		for _, x := range a.Args {
			out = appendConjuncts(out, x)
		}
		return out
	}
	if f == True {
		return out
	}
	return append(out, f)
}

// Vars returns the sorted, distinct names of the variables of e.
func Vars(e Expr) []string {
	set := map[string]bool{}
	Walk(e, func(x Expr) {
		if v, ok := x.(Var); ok {
			set[v.Name] = true
		}
	})
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Walk calls f on e and every node below it, parents first.
func Walk(e Expr, f func(Expr)) {
	f(e)
	if a, ok := e.(*App); ok {
		for _, x := range a.Args {
			Walk(x, f)
		}
	}
}

// Rename returns e with every variable v replaced by sub(v.Name), or left
// alone where sub returns nil.
func Rename(e Expr, sub func(name string) Expr) Expr {
	switch x := e.(type) {
	case Var:
		if r := sub(x.Name); r != nil {
			return r
		}
		return x
	case *App:
		args := make([]Expr, len(x.Args))
		changed := false
		for i, a := range x.Args {
			args[i] = Rename(a, sub)
			changed = changed || args[i] != a
		}
		if !changed {
			return x
		}
		return Rebuild(x.Op, args)
	}
	return e
}

// Rebuild applies op to args through the folding constructors.
func Rebuild(op Op, args []Expr) Expr {
	switch op {
	case OpAdd:
		r := args[0]
		for _, a := range args[1:] {
			r = Add(r, a)
		}
		return r
	case OpSub:
		return Sub(args[0], args[1])
	case OpMul:
		return Mul(args[0], args[1])
	case OpDiv:
		return Div(args[0], args[1])
	case OpMod:
		return Mod(args[0], args[1])
	case OpNeg:
		return Neg(args[0])
	case OpIte:
		return Ite(args[0], args[1], args[2])
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return Cmp(op, args[0], args[1])
	case OpAnd:
		return And(args...)
	case OpOr:
		return Or(args...)
	case OpNot:
		return Not(args[0])
	case OpImplies:
		return Implies(args[0], args[1])
	}
	panic("expr: unknown op " + op.String())
}
