package cfront

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"modernc.org/cc/v4"

	"fencer/cs"
	"fencer/readkit"
)

// Reader is the cs.Reader of C files. Defines are the -D NAME=VALUE (or
// NAME) of the command line; Style is how InsertFences writes a fence
// (StyleC11 when empty); Target is the architecture whose mapping of C11
// atomics the file is read with (target.go): TargetDefault (x86 under
// TSO, SPARC under PSO) when empty, or the target of an axiomatic model
// (TargetOf("arm")), under which EditChanges writes the changes of
// fencer insert back.
type Reader struct {
	Defines []string
	Style   Style
	Target  Target
	// CutOutOfBounds makes an array index out of bounds end the run
	// (assume(false)) instead of failing an assertion: the runs that reach
	// that undefined behaviour are left out. fencer verify TASK.yml reads
	// the file so a second time to tell a reachable call of reach_error
	// from a reachable index out of bounds (docs/svcomp.md).
	CutOutOfBounds bool
	// SplitAtomic lets an atomic section with many paths run as steps
	// under a lock when no other process accesses its variables outside
	// an atomic step: a program with the same reachable errors under SC,
	// not under TSO or PSO (svcomp.go). fencer verify TASK.yml sets it.
	SplitAtomic bool
	// Approximate computes the operations fencer's linear integers cannot
	// say (the product of two variables, division by a variable, bitwise
	// operations) as any integer instead of refusing them: the program has
	// more runs than the C program, so only a verdict that every run is
	// correct holds (Facts.Approximations lists them). fencer verify
	// TASK.yml sets it.
	Approximate bool
}

// Style is a way of writing a full fence in C.
type Style string

const (
	StyleC11 Style = "c11" // atomic_thread_fence(memory_order_seq_cst);
	StyleGCC Style = "gcc" // __sync_synchronize();
	StyleAsm Style = "asm" // asm volatile("mfence" ::: "memory");
)

// Styles are the values of --fence-style.
var Styles = []Style{StyleC11, StyleGCC, StyleAsm}

// Format is "c".
func (Reader) Format() string { return "c" }

// Parse reads the C file src named filename and builds its concurrent
// system: nil and a cs.ErrorList ("file:line:col: message") on an error,
// "unsupported: ..." for a construct outside the contract. The system's
// Warnings hold what the translation warns about.
func (r Reader) Parse(filename string, src []byte) (*cs.System, error) {
	return r.ParseWith(filename, src, cs.Options{})
}

// ParseWith is Parse with options: with Reconsider, the fences of the file
// (full fences written as statements of their own) are candidate sites
// (cs.Site.Fence) that fencer insert --reconsider keeps or removes.
func (r Reader) ParseWith(filename string, src []byte, opt cs.Options) (*cs.System, error) {
	file, prog, t, err := r.read(filename, src)
	if err != nil {
		return nil, err
	}
	sys, err := readkit.LowerWith(file, prog, r, opt)
	if err != nil {
		return nil, err
	}
	for _, s := range sys.Sites {
		// Under a weak target a barrier can go after every C statement
		// that accesses shared memory, and before one that begins the
		// body of an if, else or loop (docs/c.md).
		s.AfterWrite = (s.Place == cs.After || t.target.weak()) && t.writePoints[[2]int{s.Start, s.End}]
		if c := t.copies[[2]int{s.Start, s.End}]; s.AfterWrite && c > s.Copies {
			// cfront unrolls for loops itself: cs sees one copy.
			s.Copies = c
		}
	}
	for _, p := range sys.Procs {
		if i := strings.IndexByte(p.Name, '['); i > 0 {
			p.Template = p.Name[:i]
		}
	}
	for _, w := range t.warnings {
		sys.Warnings = append(sys.Warnings, &cs.Error{Pos: w.Pos, Msg: w.Msg})
	}
	for _, n := range t.notes {
		sys.Notes = append(sys.Notes, &cs.Error{Pos: n.Pos, Msg: n.Msg})
	}
	return sys, nil
}

// Program returns the .cs syntax tree that Parse lowers (for fencer show
// --cs); its positions are offsets of the C file.
func (r Reader) Program(filename string, src []byte) (*cs.Program, error) {
	_, prog, _, err := r.read(filename, src)
	return prog, err
}

// lastRead memoises the last translation: Parse, then EditFences on the
// patched-to-be text, translate it once.
var lastRead struct {
	sync.Mutex
	key  string // the target, the defines and the text: what the translation depends on
	file *cs.File
	t    *translator
}

// read preprocesses, parses, checks and translates the file, or returns
// the memoised translation of the same text and defines. The .cs tree is
// the translation's: cs.Lower does not change it. An empty filename (from
// EditFences, which is given no name and needs only offsets) takes the
// memoised translation under whatever name it was read, else reads the
// text as "input.c".
func (r Reader) read(filename string, src []byte) (*cs.File, *cs.Program, *translator, error) {
	key := string(r.Target) + "\x00" + strconv.FormatBool(r.CutOutOfBounds) + strconv.FormatBool(r.SplitAtomic) + strconv.FormatBool(r.Approximate) + "\x00" + strings.Join(r.Defines, "\x00") + "\x00" + string(src)
	lastRead.Lock()
	if lastRead.key == key && lastRead.t != nil && (filename == "" || lastRead.file.Name == filename) {
		file, t := lastRead.file, lastRead.t
		lastRead.Unlock()
		return file, t.prog, t, nil
	}
	lastRead.Unlock()
	if filename == "" {
		filename = "input.c"
	}
	file, prog, t, err := r.readOnce(filename, src)
	if err == nil {
		lastRead.Lock()
		lastRead.key, lastRead.file, lastRead.t = key, file, t
		lastRead.Unlock()
	}
	return file, prog, t, err
}

func (r Reader) readOnce(filename string, src []byte) (file *cs.File, prog *cs.Program, t *translator, err error) {
	file = cs.NewFile(filename, src)
	if len(src) > cs.MaxInputSize {
		return nil, nil, nil, cs.ErrorList{{Pos: file.Position(cs.PosAt(0)), Msg: "input too large"}}
	}
	defer func() {
		// cc must never take the program down: a panic in it is an
		// error of the input's first line.
		if x := recover(); x != nil {
			file, prog, t = nil, nil, nil
			err = cs.ErrorList{{Pos: cs.NewFile(filename, src).Position(cs.PosAt(0)), Msg: fmt.Sprintf("unsupported: the C front end failed on this file (%v)", x)}}
		}
	}()
	if err := r.Target.valid(); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %v", filename, err)
	}
	cfg, err := hostConfig()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: cannot configure the C preprocessor from the host compiler: %v", filename, err)
	}
	predef := cfg.Predefined
	for _, d := range r.Defines {
		name, val, ok := strings.Cut(d, "=")
		if !ok {
			val = "1"
		}
		if !validMacro(name) {
			return nil, nil, nil, fmt.Errorf("-D %s: not a macro name", d)
		}
		predef += "\n#define " + name + " " + val + "\n"
	}
	ast, err := cc.Translate(cfg, []cc.Source{
		{Name: "<predefined>", Value: predef},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: filename, Value: src},
	})
	if err != nil {
		return nil, nil, nil, ccErrors(file, err)
	}
	t = &translator{
		file: file, funcs: map[string]*funcInfo{}, globals: map[*cc.Declarator]*global{},
		taken: map[string]int{}, writePoints: map[[2]int]bool{}, copies: map[[2]int]int{}, fencePoints: map[[2]int]bool{}, bare: map[[2]int]bool{}, warned: map[string]bool{},
		sharedNames: map[string]bool{}, outsideMain: map[*cc.Declarator]bool{},
		target: r.Target, accesses: map[accessKey]*access{}, fenceOrders: map[cs.Pos]int{}, casFailure: map[cs.Pos]int{},
		cutOutOfBounds: r.CutOutOfBounds, splitAtomic: r.SplitAtomic, approximate: r.Approximate,
		fileScope: map[*cc.Declarator]string{}, globalNames: map[string]*global{}, unmodelled: map[string]unsupported{}, inits: map[string]*cc.Initializer{},
	}
	props, err := directives(file)
	if err != nil {
		return nil, nil, nil, err
	}
	t.directiveLabels = map[string]bool{}
	for _, d := range props {
		switch d := d.(type) {
		case *cs.MutexDecl:
			t.directiveLabels[d.Label.Name] = true
		case *cs.ForbiddenDecl:
			for _, it := range d.Items {
				t.directiveLabels[it.Label.Name] = true
			}
		}
	}
	prog, err = t.translate(ast)
	if err != nil {
		return nil, nil, nil, err
	}
	prog.Decls = append(prog.Decls, props...)
	t.prog = prog
	return file, prog, t, nil
}

var macroRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func validMacro(s string) bool { return macroRE.MatchString(s) }

// ccInternal matches the positions in cc's own source that its messages
// carry, "(check.go:5373:check:)".
var ccInternal = regexp.MustCompile(`\s*\([A-Za-z0-9_]+\.go:\d+:[A-Za-z0-9_.]*:?\)`)

var ccPos = regexp.MustCompile(`^(.*?):(\d+):(\d+): (.*)$`)

// ccErrors turns cc's errors into a cs.ErrorList of the C file.
func ccErrors(file *cs.File, err error) error {
	var list cs.ErrorList
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(ccInternal.ReplaceAllString(line, ""))
		if line == "" {
			continue
		}
		if m := ccPos.FindStringSubmatch(line); m != nil {
			l, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			list.Add(cs.Position{Filename: m[1], Line: l, Col: c}, m[4])
			continue
		}
		list.Add(file.Position(cs.PosAt(0)), line)
	}
	if len(list) == 0 {
		list.Add(file.Position(cs.PosAt(0)), "the C front end rejected the file")
	}
	list.RemoveMultiples()
	if len(list) > cs.MaxErrors {
		list = list[:cs.MaxErrors]
	}
	return list
}

// directiveRE matches the comment lines "// fencer: mutex L" and
// "// fencer: forbidden f[0]@a, g@b".
var directiveRE = regexp.MustCompile(`(?m)^[ \t]*//[ \t]*fencer:[ \t]*(mutex|forbidden)[ \t]+(.*?)[ \t]*\r?$`)

var procLabelRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?)@([A-Za-z_][A-Za-z0-9_]*)$`)

// directives reads the property comments of the file.
func directives(file *cs.File) ([]cs.Decl, error) {
	var out []cs.Decl
	var errs cs.ErrorList
	for _, m := range directiveRE.FindAllSubmatchIndex(file.Src, -1) {
		pos := cs.PosAt(m[0])
		kind, arg := string(file.Src[m[2]:m[3]]), strings.TrimSuffix(strings.TrimSpace(string(file.Src[m[4]:m[5]])), ";")
		switch kind {
		case "mutex":
			if !validMacro(arg) {
				errs.Add(file.Position(pos), fmt.Sprintf("malformed directive: want // fencer: mutex LABEL, found %q", arg))
				continue
			}
			out = append(out, &cs.MutexDecl{Mutex: pos, Label: ident(arg, pos), Semi: pos})
		case "forbidden":
			d := &cs.ForbiddenDecl{Forbidden: pos, Semi: pos}
			for _, item := range strings.Split(arg, ",") {
				pm := procLabelRE.FindStringSubmatch(strings.TrimSpace(item))
				if pm == nil {
					errs.Add(file.Position(pos), fmt.Sprintf("malformed directive: want // fencer: forbidden PROC@LABEL, ..., found %q", strings.TrimSpace(item)))
					d = nil
					break
				}
				d.Items = append(d.Items, &cs.ProcLabel{Proc: ident(pm[1], pos), At: pos, Label: ident(pm[2], pos)})
			}
			if d != nil {
				out = append(out, d)
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}
