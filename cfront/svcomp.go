package cfront

import (
	"fmt"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file holds the conventions of SV-COMP's tasks (docs/c.md, "SV-COMP
// tasks"): which calls are the property and which end a run.

// errorFuncs are the functions whose call is the property of an SV-COMP
// task (unreach-call): a call is a failed assertion at its line, whatever
// the file defines them to do (reach_error is usually defined empty, or
// as a call of __assert_fail).
var errorFuncs = map[string]bool{
	"reach_error":      true,
	"__VERIFIER_error": true,
	"__assert_fail":    true, // what glibc's assert expands to in a preprocessed .i file
}

// exitFuncs end the program without an error. A call is "assume(false)":
// the thread that calls it stops there. For the reachability of an error
// that is the same as ending every thread: a state that some thread
// reaches after another thread stopped at exit is reached as well in the
// run in which the thread that exits has not yet made that call, and a
// join waiting for a thread that exited never returns, as no join returns
// once the program has ended.
var exitFuncs = map[string]bool{
	"abort": true, "exit": true, "_Exit": true, "__builtin_abort": true, "__builtin_exit": true,
}

// svcompCall translates a call of an error function or of an exit
// function that the file does not define, and reports whether name was
// one. The arguments of an error function are not evaluated
// (__assert_fail's are string literals); those of exit are, for their
// side effects.
func (p *proc) svcompCall(name string, args []cc.ExpressionNode, pos cs.Pos) (cs.Expr, bool) {
	switch {
	case errorFuncs[name]:
		if p.isMain {
			p.observed = true
		}
		p.emit(&cs.AssertStmt{Assert: pos, X: &cs.BoolLit{ValuePos: pos, Value: false}, Semi: pos - 1})
		return nil, true
	case exitFuncs[name] && p.t.funcs[name] == nil:
		if p.isMain {
			p.observed = true
		}
		for _, a := range args {
			if !a.Pure() {
				p.effect(a)
			}
		}
		p.emit(synAssume(&cs.BoolLit{ValuePos: pos, Value: false}, pos))
		return nil, true
	}
	return nil, false
}

// jumpTargets returns the labels that some goto of fi's body names.
func (fi *funcInfo) jumpTargets() map[string]bool {
	if fi.gotos != nil {
		return fi.gotos
	}
	fi.gotos = map[string]bool{}
	inspect(fi.def.CompoundStatement, func(n any) bool {
		if j, ok := n.(*cc.JumpStatement); ok && j.Case == cc.JumpStatementGoto {
			fi.gotos[j.Token2.SrcStr()] = true
		}
		return true
	})
	return fi.gotos
}

// unusedLabel reports whether the C label name of the current function is
// one that nothing jumps to and no property names (// fencer: mutex or
// forbidden): the label of SV-COMP's "ERROR: reach_error();", which may
// stand inside an atomic section, where a label cannot.
func (p *proc) unusedLabel(name string) bool {
	if p.t.directiveLabels[name] {
		return false
	}
	f := p.frame()
	return f.fi != nil && !f.fi.jumpTargets()[name]
}

// outOfRange is the statement for an index out of bounds: a failed
// assertion, or with Reader.CutOutOfBounds the end of the run (what fencer
// verify TASK.yml uses to tell a call of reach_error from undefined
// behaviour, docs/svcomp.md). It counts the checks made.
func (p *proc) outOfRange(pos cs.Pos) cs.Stmt {
	p.t.boundsChecks++
	if p.t.cutOutOfBounds {
		return synAssume(&cs.BoolLit{ValuePos: pos, Value: false}, pos)
	}
	return &cs.AssertStmt{Assert: pos, X: &cs.BoolLit{ValuePos: pos, Value: false}, Semi: pos - 1}
}

// Facts are what the reading of a C file added to the program beyond its
// text.
type Facts struct {
	// BoundsChecks counts the checks of array bounds (and of null
	// pointers) that the translation added: statements that are not the
	// program's (outOfRange).
	BoundsChecks int
	// Approximations are the operations that, with Reader.Approximate,
	// the program computes as any integer, each "file:line:col: what":
	// a run through one may not be a run of the program.
	Approximations []string
}

// Facts reads the C file src (the translation is memoised) and returns
// its Facts, or the error that reading it gives.
func (r Reader) Facts(filename string, src []byte) (Facts, error) {
	_, _, t, err := r.read(filename, src)
	if err != nil {
		return Facts{}, err
	}
	return Facts{BoundsChecks: t.boundsChecks, Approximations: t.approximations}, nil
}

// approx is a op b computed as any integer (Reader.Approximate): the
// operands are evaluated (their reads and checks run), a division by 0
// ends the run (as the signal it raises in C would), and the result is
// chosen freely. The program then has more runs than the C program: a
// verdict that all runs are correct still holds, a bad run may not be
// one of the C program's (Facts.Approximations).
func (p *proc) approx(a, b cc.ExpressionNode, op string, pos cs.Pos) cs.Expr {
	p.rv(a)
	y := p.rv(b)
	if op == "/" || op == "%" {
		p.emit(synAssume(&cs.BinaryExpr{X: paren(y), OpPos: pos, Op: cs.NEQ, Y: lit(0, pos)}, pos))
	}
	t := p.tmp("any", pos)
	p.emit(synAssign(ident(t, pos), &cs.StarExpr{Star: pos}, pos))
	p.t.approximations = append(p.t.approximations, fmt.Sprintf("%s: %s of two variables", p.t.file.Position(pos), op))
	return ident(t, pos)
}

// splitPaths is the estimated number of paths through an atomic section
// from which, with Reader.SplitAtomic, it runs as steps under a lock: one
// atomic step per path costs an edge per path (cs.MaxPaths at most), and
// the sections of SV-COMP's instrumented programs (nested ?: on every
// line) have millions.
const splitPaths = 64

// lockVar is the name of the lock of the split sections.
const lockVar = "_atomic_lock"

// splitAtomics rewrites, under Reader.SplitAtomic, each atomic section
// with more than splitPaths paths into "acquire the lock; its statements
// (in chunks); release the lock", when no other process accesses its shared variables
// outside an atomic step; every other atomic step that accesses one of
// those variables first waits for the lock to be free. Under SC that has
// the runs of the atomic sections and more, and no more reachable errors:
// every run with atomic sections is one in which each lock is held for
// no step of another process; a run in which another process moves while
// a section holds the lock moves only through steps that touch none of
// the section's variables (the others wait for the lock), which commute
// with the section's steps; a section stuck at an assume while holding
// the lock is one that, in a run with atomic sections, never started,
// and the other processes' steps after it do not read what it wrote
// (docs/c.md). Under TSO and PSO it would not be: the command sets the
// option only for SV-COMP tasks, checked under SC.
func (t *translator) splitAtomics(procs []*cs.ProcDecl) {
	nonAtomic := make([]map[string]bool, len(procs))
	for i, d := range procs {
		nonAtomic[i] = map[string]bool{}
		t.sharedOutsideAtomic(d.Body, nonAtomic[i])
	}
	locked := map[string]bool{}
	split := map[*cs.AtomicStmt]bool{}
	for i, d := range procs {
		cs.Inspect(d.Body, func(n cs.Node) bool {
			a, ok := n.(*cs.AtomicStmt)
			if !ok {
				return true
			}
			if paths(a.Body) <= splitPaths {
				return false
			}
			vars := t.sharedOf(a)
			for j := range procs {
				if j == i {
					continue
				}
				for v := range vars {
					if nonAtomic[j][v] {
						return false
					}
				}
			}
			split[a] = true
			for v := range vars {
				locked[v] = true
			}
			return false
		})
	}
	if len(split) == 0 {
		return
	}
	t.lockName = uniqueName(lockVar, t.taken)
	for _, d := range procs {
		d.Body.List = t.rewriteAtomics(d.Body.List, split, locked)
	}
}

// rewriteAtomics returns list with the split sections unfolded and the
// other atomic steps over locked variables waiting for the lock.
func (t *translator) rewriteAtomics(list []cs.Stmt, split map[*cs.AtomicStmt]bool, locked map[string]bool) []cs.Stmt {
	var out []cs.Stmt
	for _, s := range list {
		out = append(out, t.rewriteAtomic(s, split, locked)...)
	}
	return out
}

func (t *translator) rewriteAtomic(s cs.Stmt, split map[*cs.AtomicStmt]bool, locked map[string]bool) []cs.Stmt {
	lock := func(pos cs.Pos) cs.Expr { return ident(t.lockName, pos) }
	switch x := s.(type) {
	case *cs.AtomicStmt:
		pos := x.Pos()
		if split[x] {
			acquire := synAtomic([]cs.Stmt{synAssume(eq(lock(pos), lit(0, pos)), pos), synAssign(lock(pos), lit(1, pos), pos)}, pos)
			release := synAtomic([]cs.Stmt{synAssign(lock(pos), lit(0, pos), pos)}, pos)
			return append(append([]cs.Stmt{acquire}, chunks(x.Body.List, pos)...), release)
		}
		for v := range t.sharedOf(x) {
			if locked[v] {
				x.Body.List = append([]cs.Stmt{synAssume(eq(lock(pos), lit(0, pos)), pos)}, x.Body.List...)
				break
			}
		}
	case *cs.BlockStmt:
		x.List = t.rewriteAtomics(x.List, split, locked)
	case *cs.IfStmt:
		x.Then = t.rewriteOne(x.Then, split, locked)
		if x.Else != nil {
			x.Else = t.rewriteOne(x.Else, split, locked)
		}
	case *cs.WhileStmt:
		x.Body = t.rewriteOne(x.Body, split, locked)
	case *cs.LabeledStmt:
		x.Stmt = t.rewriteOne(x.Stmt, split, locked)
	}
	return []cs.Stmt{s}
}

// chunkPaths bounds the paths of one atomic step that chunks makes.
const chunkPaths = 64

// chunks groups the statements of a split section, in order, into
// atomic steps of at most chunkPaths paths each (a statement with more
// stays a sequence of steps): the lock is held throughout, so that a
// chunk run as one step has the runs of its statements run one by one
// with nothing of another thread between them, which is all the runs
// that matter (the steps of others that could come between touch none
// of the section's variables); fewer steps are fewer states.
func chunks(list []cs.Stmt, pos cs.Pos) []cs.Stmt {
	var out, cur []cs.Stmt
	n := 1
	flush := func() {
		if len(cur) > 0 {
			out = append(out, synAtomic(cur, pos))
		}
		cur, n = nil, 1
	}
	for _, s := range list {
		k := paths(s)
		if k > chunkPaths {
			flush()
			out = append(out, s)
			continue
		}
		if n*k > chunkPaths {
			flush()
		}
		cur = append(cur, s)
		n *= k
	}
	flush()
	return out
}

// rewriteOne is rewriteAtomic for a statement that must stay one.
func (t *translator) rewriteOne(s cs.Stmt, split map[*cs.AtomicStmt]bool, locked map[string]bool) cs.Stmt {
	out := t.rewriteAtomic(s, split, locked)
	if len(out) == 1 {
		return out[0]
	}
	return synBlock(out, s.Pos())
}

// sharedOf returns the shared variables that n names.
func (t *translator) sharedOf(n cs.Node) map[string]bool {
	out := map[string]bool{}
	cs.Inspect(n, func(m cs.Node) bool {
		if id, ok := m.(*cs.Ident); ok && t.sharedNames[id.Name] {
			out[id.Name] = true
		}
		return true
	})
	return out
}

// sharedOutsideAtomic adds to out the shared variables that n names
// outside atomic steps.
func (t *translator) sharedOutsideAtomic(n cs.Node, out map[string]bool) {
	cs.Inspect(n, func(m cs.Node) bool {
		switch x := m.(type) {
		case *cs.AtomicStmt:
			return false
		case *cs.Ident:
			if t.sharedNames[x.Name] {
				out[x.Name] = true
			}
		}
		return true
	})
}

// paths estimates the paths through an atomic body (capped).
func paths(s cs.Stmt) int {
	const limit = 1 << 20
	switch x := s.(type) {
	case *cs.BlockStmt:
		n := 1
		for _, y := range x.List {
			n *= paths(y)
			if n > limit {
				return limit
			}
		}
		return n
	case *cs.IfStmt:
		n := paths(x.Then)
		if x.Else != nil {
			n += paths(x.Else)
		} else {
			n++
		}
		return min(n, limit)
	case *cs.LabeledStmt:
		return paths(x.Stmt)
	}
	return 1
}
