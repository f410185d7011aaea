package cs

import (
	"fencer/smt/expr"
)

// This file lowers atomic { ... } blocks: one OpAtomic edge per path
// through the block, each with the straight-line list of its micro-ops.

// atomic lowers s from location from and returns the location after it.
func (l *lowerer) atomic(s *AtomicStmt, from Loc) Loc {
	l.beginStmt(s.Pos())
	l.atomPos = s.Pos()
	l.tooMany = false
	to := l.newLoc()
	var fails [][]Op
	paths := l.atomicStmt(s.Body, [][]Op{nil}, &fails)
	l.stmtPos = s.Pos()
	for _, p := range paths {
		l.emit(from, to, Op{Kind: OpAtomic, Body: p}, s.Pos(), -1)
	}
	for _, p := range fails {
		l.emit(from, l.errLocation(), Op{Kind: OpAtomic, Body: p}, s.Pos(), -1)
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
func (l *lowerer) checkPaths(paths [][]Op, fails [][]Op) [][]Op {
	if len(paths)+len(fails) > MaxPaths {
		if !l.tooMany {
			l.errorf(l.atomPos, "atomic block has more than %d paths", MaxPaths)
			l.tooMany = true
		}
		paths = paths[:MaxPaths/2]
	}
	total := 0
	for _, p := range paths {
		total += len(p)
	}
	if l.nEdges+total > MaxEdges {
		l.errorf(l.atomPos, "program too large: more than %d operations after expansion", MaxEdges)
		panic(bailout{})
	}
	return paths
}

// atomicStmt extends every path in paths by the micro-ops of s; paths that
// fail an assert are appended to fails.
func (l *lowerer) atomicStmt(s Stmt, paths [][]Op, fails *[][]Op) [][]Op {
	l.nStmts++
	if l.nStmts > MaxStmts {
		l.errorf(s.Pos(), "program too large: more than %d statements after expansion", MaxStmts)
		panic(bailout{})
	}
	if len(paths) == 0 {
		return paths
	}
	switch s := s.(type) {
	case *BlockStmt:
		for _, x := range s.List {
			paths = l.atomicStmt(x, paths, fails)
		}
		return paths
	case *AssignStmt:
		l.beginStmt(s.Pos())
		if _, ok := s.Rhs.(*CallExpr); ok {
			return paths // reported by the parser
		}
		ops, _ := l.assignOps(s)
		return l.checkPaths(extend(paths, plain(ops)), *fails)
	case *AssumeStmt:
		l.beginStmt(s.Pos())
		c := asBool(l.lowerExpr(s.X))
		ops := append(plain(l.takeOps()), Op{Kind: OpAssume, Val: c})
		return l.checkPaths(extend(paths, ops), *fails)
	case *AssertStmt:
		l.beginStmt(s.Pos())
		c := asBool(l.lowerExpr(s.X))
		reads := plain(l.takeOps())
		bad := append(append([]Op(nil), reads...), Op{Kind: OpAssume, Val: expr.Not(c)})
		*fails = append(*fails, extend(paths, bad)...)
		good := append(reads, Op{Kind: OpAssume, Val: c})
		return l.checkPaths(extend(paths, good), *fails)
	case *IfStmt:
		l.beginStmt(s.Pos())
		var reads []Op
		var c expr.Expr = expr.True
		if _, star := s.Cond.(*StarExpr); !star {
			c = asBool(l.lowerExpr(s.Cond))
			reads = plain(l.takeOps())
		}
		thenPaths := l.guard(paths, reads, c, true)
		elsePaths := l.guard(paths, reads, c, false)
		if _, star := s.Cond.(*StarExpr); star {
			thenPaths, elsePaths = extend(paths, reads), extend(paths, reads)
		}
		thenPaths = l.atomicStmt(s.Then, thenPaths, fails)
		if s.Else != nil {
			elsePaths = l.atomicStmt(s.Else, elsePaths, fails)
		}
		return l.checkPaths(append(thenPaths, elsePaths...), *fails)
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
func (l *lowerer) guard(paths [][]Op, reads []Op, c expr.Expr, want bool) [][]Op {
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
