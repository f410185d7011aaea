package cs

import (
	"fmt"
	"os"
)

// This file is the entry of the lowering, which turns a syntax tree into a
// System (see doc.go for the rules): the state that lasts for the whole
// program, the limits on its size, and the fence sites. Declarations are in
// decls.go; each process is built by a procLowerer (automaton.go, stmts.go,
// exprs.go, atomic.go).

// MaxVars bounds the number of scalar variables (shared, locals and
// temporaries of every process, arrays expanded).
const MaxVars = 100000

// Parse parses and lowers the source src of the file named filename. On any
// error it returns a nil System and a sorted ErrorList (at most MaxErrors
// entries, one per line).
func Parse(filename string, src []byte) (*System, error) {
	file := NewFile(filename, src)
	prog, err := ParseProgram(file)
	if err != nil {
		return nil, err
	}
	return Lower(file, prog)
}

// ParseFile reads and parses the file at path.
func ParseFile(path string) (*System, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// lowerer holds what lasts for the whole program. What belongs to one
// process is in procLowerer, made afresh for each.
type lowerer struct {
	file     *File
	errs     *errorSink
	sys      *System
	consts   map[string]*constInfo
	shared   map[string]*varInfo
	procDecl map[string]*ProcDecl // by source name, for forbidden and mutex
	// scope holds the names of the process being lowered. It is set when a
	// process starts and emptied after the last one, not after each: the
	// range of a template still sees the names of the process before it (a
	// known leak).
	scope scope

	sites      []*Site          // in order of creation
	siteByKey  map[siteKey]int  // -> index in sites
	reconsider bool             // Options.Reconsider
	overrides  map[string]int64 // Options.Consts

	// Sizes so far, over all processes, checked against the limits.
	nStmts int
	nEdges int
	nVars  int
}

func (l *lowerer) errorf(pos Pos, format string, args ...any) {
	l.errs.add(pos, fmt.Sprintf(format, args...))
}

// Lower turns a syntax tree without errors into a System. It returns a nil
// System and a sorted ErrorList on any error. Syntax errors, such as a "*"
// inside an expression, are reported by ParseProgram only: Lower may say
// nothing about a tree that has them.
func Lower(file *File, prog *Program) (sys *System, err error) {
	return LowerWith(file, prog, Options{})
}

// Options change how a program is lowered.
type Options struct {
	// Reconsider lowers the full fence statements of the source ("fence;",
	// not "fence store;") to nothing: each becomes a fence site like any
	// other point (Site.Fence), so that the analysis may keep it or drop it.
	Reconsider bool
	// Consts sets the value of top-level consts of the program, by name,
	// in place of the value written in their declaration (the command
	// line's -D N=4). The declaration's own expression is still checked,
	// and the consts declared after it see the new value. A name that is
	// not a const of the program is an error (at 1:1) that names it.
	Consts map[string]int64
}

// ParseWith is Parse with options.
func ParseWith(filename string, src []byte, opt Options) (*System, error) {
	file := NewFile(filename, src)
	prog, err := ParseProgram(file)
	if err != nil {
		return nil, err
	}
	return LowerWith(file, prog, opt)
}

// Reparse parses src, another text of the program of s (the program with
// fences written into it), as s was read: through its Reader, or as .cs
// with the same const settings (Options.Consts). The answer about a
// patched program is about the program the user asked about only so.
func (s *System) Reparse(src []byte) (*System, error) {
	return s.ReparseWith(src, false)
}

// ReparseWith is Reparse, with reconsider lowering the full fences of the
// text as candidate sites (Options.Reconsider); a Reader must then be a
// FenceEditor.
func (s *System) ReparseWith(src []byte, reconsider bool) (*System, error) {
	opt := Options{Reconsider: reconsider, Consts: s.Consts}
	if s.Reader == nil {
		return ParseWith(s.File.Name, src, opt)
	}
	if !reconsider {
		return s.Reader.Parse(s.File.Name, src)
	}
	fe, ok := s.Reader.(FenceEditor)
	if !ok {
		return nil, fmt.Errorf("%s: a %s file cannot be read with its fences as candidates", s.File.Name, s.Reader.Format())
	}
	return fe.ParseWith(s.File.Name, src, Options{Reconsider: true})
}

// LowerWith is Lower with options.
func LowerWith(file *File, prog *Program, opt Options) (sys *System, err error) {
	l := &lowerer{
		reconsider: opt.Reconsider,
		overrides:  opt.Consts,
		file:       file,
		errs:       &errorSink{file: file},
		sys:        &System{File: file, Consts: opt.Consts},
		consts:     map[string]*constInfo{},
		shared:     map[string]*varInfo{},
		procDecl:   map[string]*ProcDecl{},
		siteByKey:  map[siteKey]int{},
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		l.program(prog)
	}()
	if errs := l.errs.result(); len(errs) > 0 {
		return nil, errs
	}
	return l.sys, nil
}

// program lowers the declarations in the order they depend on each other:
// consts, shared variables, processes, then the properties, which name
// the processes' labels.
func (l *lowerer) program(prog *Program) {
	consts, shared, procs := l.declare(prog)
	l.constants(consts)
	l.sharedVars(shared)
	if len(procs) == 0 {
		l.errorf(PosAt(0), "program has no processes")
		return
	}
	for _, d := range procs {
		l.instances(d)
	}
	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *ForbiddenDecl:
			l.forbidden(d)
		case *MutexDecl:
			l.mutex(d)
		}
	}
	l.finishSites()
}

// ---------------------------------------------------------------------------
// Limits: past one of them, lowering stops (bailout) rather than grow.

func (l *lowerer) countVars(n int, pos Pos) {
	l.nVars += n
	if l.nVars > MaxVars {
		l.errorf(pos, "too many variables (more than %d scalars)", MaxVars)
		panic(bailout{})
	}
}

// countStmt counts one statement after expansion (templates, for loops).
func (l *lowerer) countStmt(pos Pos) {
	l.nStmts++
	if l.nStmts > MaxStmts {
		l.errorf(pos, "program too large: more than %d statements after expansion", MaxStmts)
		panic(bailout{})
	}
}

// checkEdges stops when n operations would exceed MaxEdges.
func (l *lowerer) checkEdges(n int, pos Pos) {
	if n > MaxEdges {
		l.errorf(pos, "program too large: more than %d operations after expansion", MaxEdges)
		panic(bailout{})
	}
}
