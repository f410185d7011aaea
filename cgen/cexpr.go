package cgen

import (
	"fmt"
	"strconv"
	"strings"

	"fencer/expr"
)

// cExpr prints e as a C expression of type long (a formula as 0 or 1);
// name gives the C spelling of each variable. Integers are 64-bit in C and
// the program is compiled with -fwrapv: where the model's mathematical
// integers would leave 64 bits, C wraps around.
func cExpr(e expr.Expr, name func(string) string) string {
	switch x := e.(type) {
	case expr.Int:
		if x.V == -1<<63 {
			return "(-9223372036854775807L - 1)"
		}
		if x.V < 0 {
			return "(" + strconv.FormatInt(x.V, 10) + "L)"
		}
		return strconv.FormatInt(x.V, 10) + "L"
	case expr.Bool:
		if x.V {
			return "1"
		}
		return "0"
	case expr.Var:
		return name(x.Name)
	case *expr.App:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = cExpr(a, name)
		}
		switch x.Op {
		case expr.OpNeg:
			return "(-" + args[0] + ")"
		case expr.OpNot:
			return "(!" + args[0] + ")"
		case expr.OpIte:
			return "(" + args[0] + " ? " + args[1] + " : " + args[2] + ")"
		case expr.OpImplies:
			return "(!" + args[0] + " || " + args[1] + ")"
		case expr.OpAnd, expr.OpOr:
			if len(args) == 0 {
				if x.Op == expr.OpAnd {
					return "1"
				}
				return "0"
			}
		}
		return "(" + strings.Join(args, " "+x.Op.String()+" ") + ")"
	}
	panic(genError(fmt.Sprintf("an expression of type %T", e)))
}
