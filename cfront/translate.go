package cfront

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file holds the translation's state and its entry: file-scope
// variables become shared variables, main and the threads it creates
// become processes (procs.go), statements and expressions are translated
// by stmts.go, exprs.go and calls.go.

// unsupported is panicked by the translation and recovered by translate:
// the first construct outside the contract ends the reading.
type unsupported struct {
	pos cs.Pos
	msg string
}

// refuse stops the translation at pos with "unsupported: what".
func refuse(pos cs.Pos, format string, args ...any) {
	panic(unsupported{pos, "unsupported: " + fmt.Sprintf(format, args...)})
}

// failAt stops the translation at pos with an error that is not a refusal
// (a program that the contract rejects, such as recursion).
func failAt(pos cs.Pos, format string, args ...any) {
	panic(unsupported{pos, fmt.Sprintf(format, args...)})
}

// shvar is one shared variable of the .cs program: a file-scope integer, a
// one-dimensional array of them, or one field of a struct (of an array of
// structs: then an array).
type shvar struct {
	name     string // the .cs name
	cname    string // the C spelling, for messages: "s.f"
	size     int    // -1 for a scalar
	atomic   bool   // _Atomic
	volatile bool
	mutex    bool // a pthread_mutex_t
	typ      cc.Type
	pos      cs.Pos
	init     []int64 // per element (one for a scalar)
	// Plain accesses by thread processes, for the static data-race
	// warning.
	readers, writers map[string]bool
	firstWrite       cs.Pos
	// Every access, for mayRace: the processes, whether one is plain
	// (outside an atomic block), whether one writes.
	accessors          map[string]bool
	plainAny, writeAny bool
	decl               *cc.Declarator
	isConst            bool        // const-qualified: its initial values are constants
	ptr                *pointerVar // a modelled pointer (pointers.go), else nil
}

// global is a file-scope variable: an integer scalar or array (v), or a
// struct or array of structs (fields by name).
type global struct {
	v      *shvar
	fields map[string]*shvar
	size   int // the array length for an array of structs, else -1
}

// funcInfo is what the translation knows of a function of the file.
type funcInfo struct {
	def      *cc.FunctionDefinition
	name     string
	params   []*cc.Declarator
	assigned map[*cc.Declarator]bool // locals and parameters written after their declaration
	gotos    map[string]bool         // the labels a goto of the body names (jumpTargets), nil until asked
	refusal  *unsupported            // why a call of it is refused, or nil
}

// translator holds what lasts for the whole file.
type translator struct {
	file    *cs.File
	funcs   map[string]*funcInfo
	globals map[*cc.Declarator]*global
	order   []*shvar
	taken   map[string]int // shared and process names in use (see uniqueName)
	// writePoints are the spans [start, end) of the C statements that
	// write shared memory through a buffer: the fence sites. Under a weak
	// target, of the C statements that access shared memory.
	writePoints map[[2]int]bool
	// copies is, for each span of writePoints, the most copies of it one
	// process runs (unrolled loops; cs.Site.Copies).
	copies map[[2]int]int
	// fencePoints are the spans of the full fences written as C
	// statements of their own: --reconsider may remove them.
	fencePoints map[[2]int]bool
	// bare are the spans of the bodies of if, else and loops written
	// without braces.
	bare map[[2]int]bool
	// macros are the macros of the file and its headers; lastOfCall maps
	// the offset of a macro call to the last outermost statement of its
	// expansion (macros.go).
	macros     map[string]*cc.Macro
	lastOfCall map[int]*cc.Statement
	warnings   []Warning
	warned     map[string]bool

	threads  []*thread // in create order
	mainProc *proc

	// target is the mapping of C11 atomics (Reader.Target).
	target Target
	// accesses are the shared accesses of the C text that an order raise
	// may name (changes.go), by the position of their .cs operation.
	accesses map[accessKey]*access
	// fenceOrders are the memory orders of the atomic_thread_fence calls,
	// by position, under a weak target (races.go); orderAmbiguous where
	// fences of different orders share one (a macro).
	fenceOrders map[cs.Pos]int
	// casFailure are the failure orders of the compare-and-swaps, by
	// position (races.go): the step of a failed one (it writes nothing)
	// reads with that order, not the order of the whole step.
	casFailure map[cs.Pos]int
	// staticRaces are the warnings of the static data-race check
	// (raceWarnings), which Races falls back on when it cannot search.
	staticRaces []Warning

	// directiveLabels are the labels that the file's // fencer: mutex and
	// forbidden lines name.
	directiveLabels map[string]bool
	// fileScope names every file-scope object declarator (extern ones
	// too); globalNames maps a name to its global, so that all the
	// declarations of one object ("int x; int x = 1;", "extern int x;")
	// are the one shared variable. unmodelled are the file-scope
	// variables of types fencer does not model, with the refusal that a
	// use of one gets (globals.go).
	fileScope   map[*cc.Declarator]string
	globalNames map[string]*global
	unmodelled  map[string]unsupported
	inits       map[string]*cc.Initializer // the initializer of each file-scope object that has one
	notes       []Warning                  // what -v shows: the variables ignored

	// cutOutOfBounds is Reader.CutOutOfBounds; boundsChecks counts the
	// checks of array bounds made (outOfRange).
	cutOutOfBounds bool
	boundsChecks   int
	// splitAtomic is Reader.SplitAtomic; lockName the shared lock of the
	// split sections ("" when none is split).
	splitAtomic bool
	lockName    string
	// approximate is Reader.Approximate; approximations are the
	// operations computed as any integer ("file:line:col: what").
	approximate    bool
	approximations []string

	emitted     int                     // statements made so far
	prog        *cs.Program             // the result
	sharedNames map[string]bool         // every shared .cs name
	outsideMain map[*cc.Declarator]bool // assigned by a function other than main
}

// Warning is a construct that fencer analyses as the contract says but
// that the user may not expect; Pos is in the C file.
type Warning struct {
	Pos cs.Position
	Msg string
}

func (w Warning) String() string { return w.Pos.String() + ": warning: " + w.Msg }

// note records something the translation did that -v shows (a variable
// of a type fencer does not model, ignored because nothing uses it).
func (t *translator) note(pos cs.Pos, format string, args ...any) {
	t.notes = append(t.notes, Warning{t.file.Position(pos), fmt.Sprintf(format, args...)})
}

func (t *translator) warn(pos cs.Pos, key, format string, args ...any) {
	if t.warned[key] {
		return
	}
	t.warned[key] = true
	t.warnings = append(t.warnings, Warning{t.file.Position(pos), fmt.Sprintf(format, args...)})
}

// pos converts a position of cc to one of the C file; tokens of other files
// (headers) have none (NoPos).
func (t *translator) pos(n cc.Node) cs.Pos {
	if n == nil {
		return cs.NoPos
	}
	p := n.Position()
	if p.Filename != t.file.Name || p.Offset < 0 || p.Offset >= len(t.file.Src) {
		return cs.NoPos
	}
	return cs.PosAt(p.Offset)
}

// uniqueName returns want (with '$' written '_'), or want_2, want_3, ...
// that is not in taken and not a .cs keyword, and marks it taken (1). taken also keeps, under
// "#"+want, the number to try next for want, so that making n names from
// one stem costs O(n).
func uniqueName(want string, taken map[string]int) string {
	// GNU C allows '$' in identifiers (SV-COMP's instrumented programs
	// use it: "y$w_buff0"); a .cs name does not: it is '_'.
	want = strings.ReplaceAll(want, "$", "_")
	name := want
	n := taken["#"+want]
	if n < 2 {
		n = 2
	}
	if taken[name] != 0 || cs.Lookup(name) != cs.IDENT || name == "true" || name == "false" {
		for ; ; n++ {
			name = want + "_" + strconv.Itoa(n)
			if taken[name] == 0 {
				break
			}
		}
		n++
	}
	taken["#"+want] = n
	taken[name] = 1
	return name
}

// translate builds the .cs syntax tree of the checked C translation unit.
func (t *translator) translate(ast *cc.AST) (prog *cs.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsupported)
			if !ok {
				panic(r)
			}
			prog, err = nil, cs.ErrorList{{Pos: t.file.Position(u.pos), Msg: u.msg}}
		}
	}()
	t.findMacroCalls(ast)
	var mainDef *cc.FunctionDefinition
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Position().Filename != t.file.Name {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			fi := t.function(fd)
			if fi.name == "main" {
				mainDef = fd
			} else {
				for d := range fi.assigned {
					t.outsideMain[d] = true
				}
			}
		case cc.ExternalDeclarationDecl:
			t.fileDecl(ed.Declaration)
		case cc.ExternalDeclarationAsmStmt:
			refuse(t.pos(ed), "asm at file scope")
		}
	}
	if mainDef == nil {
		failAt(cs.PosAt(0), "no main function: the program must start its threads in main")
	}
	t.modelPointers(ast)
	prog = t.program(mainDef)
	t.noteUnmodelled()
	return prog, nil
}

// function records a function definition.
func (t *translator) function(fd *cc.FunctionDefinition) *funcInfo {
	d := fd.Declarator
	fi := &funcInfo{def: fd, name: d.Name(), assigned: map[*cc.Declarator]bool{}}
	// A function the program never calls may be anything (the inline
	// functions of a preprocessed file's headers): these are refused
	// where it is called (checkCallable).
	if fd.DeclarationList != nil {
		fi.refusal = &unsupported{t.pos(fd), "unsupported: old-style parameter declarations"}
	}
	if ft, ok := d.Type().(*cc.FunctionType); ok {
		if ft.IsVariadic() {
			fi.refusal = &unsupported{t.pos(fd), "unsupported: variadic function " + fi.name}
		}
	}
	fi.params = paramDeclarators(d)
	collectAssigned(fd.CompoundStatement, fi.assigned)
	t.funcs[fi.name] = fi
	return fi
}

// paramDeclarators returns the declarators of the parameters of a function
// declarator.
func paramDeclarators(d *cc.Declarator) []*cc.Declarator {
	var out []*cc.Declarator
	dd := d.DirectDeclarator
	for dd != nil && dd.Case != cc.DirectDeclaratorFuncParam {
		dd = dd.DirectDeclarator
	}
	if dd == nil || dd.ParameterTypeList == nil {
		return nil
	}
	for l := dd.ParameterTypeList.ParameterList; l != nil; l = l.ParameterList {
		if pd := l.ParameterDeclaration; pd != nil && pd.Declarator != nil {
			out = append(out, pd.Declarator)
		}
	}
	return out
}

// sortedShared returns the shared variables in declaration order.
func (t *translator) sharedSpecs() []*cs.VarSpec {
	var specs []*cs.VarSpec
	for _, v := range t.order {
		if v.split() {
			continue
		}
		sp := &cs.VarSpec{Name: &cs.Ident{NamePos: v.pos, Name: v.name}}
		if v.size >= 0 {
			sp.Size = lit(int64(v.size), v.pos)
		}
		// cs gives one initial value to every element of an array; other
		// initial values are written by the initial assignments of
		// initStmts (a .cs program cannot say them).
		if len(v.init) > 0 && v.init[0] != 0 && v.uniformInit() {
			sp.Value = lit(v.init[0], v.pos)
		}
		specs = append(specs, sp)
	}
	return specs
}

func (v *shvar) uniformInit() bool {
	for _, x := range v.init {
		if x != v.init[0] {
			return false
		}
	}
	return true
}

// lit is the .cs literal v at pos.
func lit(v int64, pos cs.Pos) cs.Expr {
	if v < 0 {
		if v == -v { // math.MinInt64
			return &cs.BinaryExpr{X: lit(v+1, pos), OpPos: pos, Op: cs.SUB, Y: lit(1, pos)}
		}
		return &cs.ParenExpr{Lparen: pos, X: &cs.UnaryExpr{OpPos: pos, Op: cs.SUB, X: &cs.IntLit{ValuePos: pos, Lit: strconv.FormatInt(-v, 10), Value: -v}}, Rparen: pos}
	}
	return &cs.IntLit{ValuePos: pos, Lit: strconv.FormatInt(v, 10), Value: v}
}

// raceWarnings lists in staticRaces the plain shared variables that two
// threads access, one of them writing: the warnings of the static check
// that Races (races.go) falls back on when it cannot search the runs.
func (t *translator) raceWarnings() {
	for _, v := range t.order {
		if v.atomic || v.volatile || v.mutex || len(v.writers) == 0 {
			continue
		}
		all := map[string]bool{}
		for p := range v.readers {
			all[p] = true
		}
		for p := range v.writers {
			all[p] = true
		}
		if len(all) < 2 {
			continue
		}
		var names []string
		for p := range all {
			names = append(names, p)
		}
		sort.Strings(names)
		t.staticRaces = append(t.staticRaces, Warning{t.file.Position(v.firstWrite), fmt.Sprintf("%s is a plain shared variable that threads %s access, one of them writing: a data race in C11; the compiler may hoist or merge its accesses, which no fence prevents: make it volatile or _Atomic", v.cname, strings.Join(names, ", "))})
	}
}
