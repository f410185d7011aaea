package cs

import (
	"fencer/expr"
)

// This file lowers atomic { ... } blocks: one OpAtomic edge per path
// through the block, each with the straight-line list of its micro-ops.

// atomic lowers s from location from and returns the location after it.
func (pl *procLowerer) atomic(s *AtomicStmt, from Loc) Loc {
	pl.beginStmt(s.Pos())
	pl.atomPos = s.Pos()
	pl.tooMany = false
	to := pl.newLoc()
	var fails [][]Op
	paths := pl.atomicStmt(s.Body, [][]Op{nil}, &fails)
	pl.stmtPos = s.Pos()
	ann := rmwAnn(s.Ann)
	for _, p := range paths {
		pl.emit(from, to, Op{Kind: OpAtomic, Body: p, Ann: ann}, s.Pos())
	}
	for _, p := range fails {
		pl.emit(from, pl.errLocation(), Op{Kind: OpAtomic, Body: p, Ann: ann}, s.Pos())
	}
	return to
}

// extend returns copies of the paths, each followed by ops.
func extend(paths [][]Op, ops []Op) [][]Op {
	out := make([][]Op, len(paths))
	for i, p := range paths {
		q := make([]Op, len(p), len(p)+len(ops))
		copy(q, p)
		out[i] = append(q, ops...)
	}
	return out
}

func plain(ops []posOp) []Op {
	out := make([]Op, len(ops))
	for i, o := range ops {
		out[i] = o.op
	}
	return out
}

// checkPaths enforces MaxPaths and MaxEdges on the paths built so far.
func (pl *procLowerer) checkPaths(paths [][]Op, fails [][]Op) [][]Op {
	if len(paths)+len(fails) > MaxPaths {
		if !pl.tooMany {
			pl.errorf(pl.atomPos, "atomic block has more than %d paths", MaxPaths)
			pl.tooMany = true
		}
		paths = paths[:MaxPaths/2]
	}
	total := 0
	for _, p := range paths {
		total += len(p)
	}
	pl.checkEdges(pl.nEdges+total, pl.atomPos)
	return paths
}

// atomicStmt extends every path in paths by the micro-ops of s; paths that
// fail an assert are appended to fails.
func (pl *procLowerer) atomicStmt(s Stmt, paths [][]Op, fails *[][]Op) [][]Op {
	pl.countStmt(s.Pos())
	if len(paths) == 0 {
		return paths
	}
	switch s := s.(type) {
	case *BlockStmt:
		for _, x := range s.List {
			paths = pl.atomicStmt(x, paths, fails)
		}
		return paths
	case *AssignStmt:
		pl.beginStmt(s.Pos())
		if _, ok := s.Rhs.(*CallExpr); ok {
			return paths // reported by the parser
		}
		ops, _ := pl.assignOps(s)
		return pl.checkPaths(extend(paths, plain(ops)), *fails)
	case *AssumeStmt:
		pl.beginStmt(s.Pos())
		c := asBool(pl.lowerExpr(s.X))
		ops := append(plain(pl.takeOps()), Op{Kind: OpAssume, Val: c})
		return pl.checkPaths(extend(paths, ops), *fails)
	case *AssertStmt:
		pl.beginStmt(s.Pos())
		c := asBool(pl.lowerExpr(s.X))
		reads := plain(pl.takeOps())
		bad := append(append([]Op(nil), reads...), Op{Kind: OpAssume, Val: expr.Not(c)})
		*fails = append(*fails, extend(paths, bad)...)
		good := append(reads, Op{Kind: OpAssume, Val: c})
		return pl.checkPaths(extend(paths, good), *fails)
	case *IfStmt:
		pl.beginStmt(s.Pos())
		var reads []Op
		var c expr.Expr = expr.True
		if _, star := s.Cond.(*StarExpr); !star {
			c = asBool(pl.lowerExpr(s.Cond))
			reads = plain(pl.takeOps())
		}
		thenPaths := pl.guard(paths, reads, c, true)
		elsePaths := pl.guard(paths, reads, c, false)
		if _, star := s.Cond.(*StarExpr); star {
			thenPaths, elsePaths = extend(paths, reads), extend(paths, reads)
		}
		thenPaths = pl.atomicStmt(s.Then, thenPaths, fails)
		if s.Else != nil {
			elsePaths = pl.atomicStmt(s.Else, elsePaths, fails)
		}
		return pl.checkPaths(append(thenPaths, elsePaths...), *fails)
	case *BadStmt, *EmptyStmt, *SkipStmt:
		return paths
	}
	// Loops, goto, labels, fence, declarations and nested atomic blocks are
	// reported by the parser.
	return paths
}

// guard returns the paths extended by reads and assume(c) (or assume(!c)
// when want is false); a branch whose condition is the constant false is
// dropped, and assume(true) is left out.
func (pl *procLowerer) guard(paths [][]Op, reads []Op, c expr.Expr, want bool) [][]Op {
	if !want {
		c = expr.Not(c)
	}
	if b, ok := expr.BoolValue(c); ok {
		if !b {
			return nil
		}
		return extend(paths, reads)
	}
	ops := append(append([]Op(nil), reads...), Op{Kind: OpAssume, Val: c})
	return extend(paths, ops)
}
