package cfront

import (
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

// BoundsChecks returns the number of checks of array bounds that the
// translation of the C file src adds (statements that are not the
// program's: outOfRange), or the error that reading it gives.
func (r Reader) BoundsChecks(filename string, src []byte) (int, error) {
	_, _, t, err := r.read(filename, src)
	if err != nil {
		return 0, err
	}
	return t.boundsChecks, nil
}
