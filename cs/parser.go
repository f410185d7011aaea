package cs

import (
	"fmt"
	"strconv"
)

// Limits of the front end. Inputs beyond them are rejected with an error,
// never a crash.
const (
	MaxInputSize  = 1 << 20 // bytes of source
	MaxProcs      = 64      // processes, template instances included
	MaxInstances  = 64      // instances of one template
	MaxArraySize  = 4096    // elements of one array
	MaxStmts      = 200000  // statements lowered, after template and for expansion
	MaxEdges      = 200000  // edges (plus micro-ops of atomic bodies) in the system
	MaxDepth      = 200     // nesting of blocks, statements, parentheses and operators
	MaxPaths      = 1024    // paths through one atomic block
	MaxErrors     = 10      // errors reported before giving up
	maxSyncTokens = 1 << 30
)

// bailout is panicked to abandon parsing or lowering; it is recovered by
// ParseProgram and lower.
type bailout struct{}

// errorSink collects errors and bails out after MaxErrors.
type errorSink struct {
	file *File
	list ErrorList
	seen map[string]bool
}

func (s *errorSink) add(pos Pos, msg string) {
	key := fmt.Sprintf("%d:%s", pos, msg)
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.list.Add(s.file.Position(pos), msg)
	if len(s.list) >= MaxErrors {
		panic(bailout{})
	}
}

// result returns the sorted list with one error per line.
func (s *errorSink) result() ErrorList {
	l := s.list
	l.RemoveMultiples()
	return l
}

type parser struct {
	errs    *errorSink
	scanner Scanner

	// current token
	pos Pos
	tok Token
	lit string

	// one token of lookahead
	peeked  bool
	pkPos   Pos
	pkTok   Token
	pkLit   string
	depth   int
	inFor   int // inside a for body
	atomic  int // inside an atomic block
	labels  map[string]Pos
	gotos   []*Ident
	inProc  bool
	declsOK bool // local declarations are still allowed
}

// ParseProgram parses the source of file into a syntax tree. It returns the
// tree, possibly partial with Bad nodes, and the errors found (nil if none),
// as a sorted ErrorList with at most one error per line.
func ParseProgram(file *File) (prog *Program, err error) {
	sink := &errorSink{file: file}
	p := &parser{errs: sink}
	prog = &Program{}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		if len(file.Src) > MaxInputSize {
			sink.add(PosAt(0), fmt.Sprintf("input too large: %d bytes (at most %d)", len(file.Src), MaxInputSize))
			return
		}
		p.scanner.Init(file.Src, sink.add)
		p.next()
		p.parseFile(prog)
	}()
	return prog, sink.result().Err()
}

func (p *parser) next() {
	if p.peeked {
		p.pos, p.tok, p.lit = p.pkPos, p.pkTok, p.pkLit
		p.peeked = false
		return
	}
	p.pos, p.tok, p.lit = p.scanner.Scan()
}

func (p *parser) peek() Token {
	if !p.peeked {
		p.pkPos, p.pkTok, p.pkLit = p.scanner.Scan()
		p.peeked = true
	}
	return p.pkTok
}

func (p *parser) error(pos Pos, msg string) { p.errs.add(pos, msg) }

func (p *parser) found() string {
	switch {
	case p.tok == EOF:
		return "end of file"
	case p.tok == IDENT:
		return "identifier " + p.lit
	case p.tok == INT:
		return "integer " + p.lit
	case p.tok == ILLEGAL:
		return strconv.Quote(p.lit)
	}
	return "'" + p.tok.String() + "'"
}

func (p *parser) errorExpected(what string) {
	if p.tok == ILLEGAL {
		return // the scanner has reported it
	}
	p.error(p.pos, "expected "+what+", found "+p.found())
}

// expect consumes tok and returns its position, or reports an error and
// leaves the current token alone.
func (p *parser) expect(tok Token) Pos {
	pos := p.pos
	if p.tok != tok {
		p.errorExpected("'" + tok.String() + "'")
		return pos
	}
	p.next()
	return pos
}

// expectSemi expects the ';' that ends a statement or declaration; on a
// mismatch it skips to the next ';', '}' or statement keyword.
func (p *parser) expectSemi() Pos {
	pos := p.pos
	if p.tok == SEMICOLON {
		p.next()
		return pos
	}
	p.errorExpected("';'")
	p.sync()
	return pos
}

// sync skips tokens to a point where parsing can resume: just after a ';',
// or at a '}', a keyword that starts a statement or declaration, or EOF.
func (p *parser) sync() {
	for n := 0; n < maxSyncTokens; n++ {
		switch p.tok {
		case EOF, RBRACE, IF, WHILE, FOR, GOTO, FENCE, ASSUME, ASSERT, ATOMIC, SKIP,
			SHARED, CONST, PROCESS, FORBIDDEN, MUTEX, LOCAL:
			return
		case SEMICOLON:
			p.next()
			return
		}
		p.next()
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.error(p.pos, fmt.Sprintf("nesting too deep (more than %d levels)", MaxDepth))
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

// ---------------------------------------------------------------------------
// Declarations

func (p *parser) parseFile(prog *Program) {
	for p.tok != EOF {
		start := p.pos
		if d := p.parseDecl(); d != nil {
			prog.Decls = append(prog.Decls, d)
		}
		if p.pos == start && p.tok != EOF {
			p.next() // make progress
		}
	}
}

func (p *parser) parseDecl() Decl {
	switch p.tok {
	case CONST:
		d := &ConstDecl{Const: p.pos}
		p.next()
		d.Name = p.parseIdent()
		p.expect(ASSIGN)
		d.Value = p.parseExpr()
		d.Semi = p.expectSemi()
		return d
	case SHARED:
		return p.parseVarsDecl()
	case LOCAL:
		p.error(p.pos, "local declaration outside a process")
		p.parseVarsDecl()
		return nil
	case PROCESS:
		return p.parseProcDecl()
	case FORBIDDEN:
		d := &ForbiddenDecl{Forbidden: p.pos}
		p.next()
		for {
			it := &ProcLabel{Proc: p.parseIdent()}
			if p.tok == LBRACK {
				p.next()
				it.Index = p.parseExpr()
				p.expect(RBRACK)
			}
			it.At = p.expect(AT)
			it.Label = p.parseIdent()
			d.Items = append(d.Items, it)
			if p.tok != COMMA {
				break
			}
			p.next()
		}
		d.Semi = p.expectSemi()
		return d
	case MUTEX:
		d := &MutexDecl{Mutex: p.pos}
		p.next()
		d.Label = p.parseIdent()
		d.Semi = p.expectSemi()
		return d
	}
	pos := p.pos
	p.errorExpected("declaration (const, shared, process, forbidden or mutex)")
	p.next()
	p.sync()
	return &BadDecl{From: pos, To: p.pos}
}

func (p *parser) parseIdent() *Ident {
	id := &Ident{NamePos: p.pos, Name: "_"}
	if p.tok == IDENT {
		id.Name = p.lit
		p.next()
	} else {
		p.errorExpected("identifier")
	}
	return id
}

// parseVarsDecl parses shared ... ; or local ... ;
func (p *parser) parseVarsDecl() *VarsDecl {
	d := &VarsDecl{Keyword: p.pos, Tok: p.tok}
	p.next()
	for {
		sp := &VarSpec{Name: p.parseIdent()}
		if p.tok == LBRACK {
			p.next()
			sp.Size = p.parseExpr()
			p.expect(RBRACK)
		}
		if p.tok == ASSIGN {
			p.next()
			if p.tok == MUL {
				sp.Value = &StarExpr{Star: p.pos}
				p.next()
			} else {
				sp.Value = p.parseExpr()
			}
		}
		d.Specs = append(d.Specs, sp)
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	d.Semi = p.expectSemi()
	return d
}

func (p *parser) parseProcDecl() *ProcDecl {
	d := &ProcDecl{Process: p.pos}
	p.next()
	d.Name = p.parseIdent()
	if p.tok == LBRACK {
		p.next()
		d.Index = p.parseIdent()
		p.expect(IN)
		d.Lo = p.parseExpr()
		p.expect(RANGE)
		d.Hi = p.parseExpr()
		p.expect(RBRACK)
	}
	p.labels = map[string]Pos{}
	p.gotos = nil
	p.inProc, p.declsOK = true, true
	if p.tok != LBRACE {
		p.errorExpected("'{'")
		p.sync()
		d.Body = &BlockStmt{Lbrace: p.pos, Rbrace: p.pos}
	} else {
		d.Body = p.parseBlock()
	}
	p.inProc = false
	for _, g := range p.gotos {
		if _, ok := p.labels[g.Name]; !ok {
			p.error(g.Pos(), fmt.Sprintf("label %s not defined", g.Name))
		}
	}
	return d
}

// ---------------------------------------------------------------------------
// Statements

func (p *parser) parseBlock() *BlockStmt {
	b := &BlockStmt{Lbrace: p.expect(LBRACE)}
	p.enter()
	for p.tok != RBRACE && p.tok != EOF {
		start := p.pos
		if s := p.parseStmt(); s != nil {
			b.List = append(b.List, s)
		}
		if p.pos == start && p.tok != RBRACE && p.tok != EOF {
			p.next() // make progress
		}
	}
	p.leave()
	b.Rbrace = p.pos
	if p.tok != RBRACE {
		p.errorExpected("'}'")
	} else {
		p.next()
	}
	return b
}

// parseBody parses the body of if, else, while or for.
func (p *parser) parseBody() Stmt {
	return p.parseStmt()
}

func (p *parser) notInAtomic(pos Pos, what string) {
	if p.atomic > 0 {
		p.error(pos, what+" not allowed inside atomic")
	}
}

func (p *parser) parseStmt() Stmt {
	p.enter()
	defer p.leave()
	if p.tok != LOCAL {
		p.declsOK = false
	}
	pos := p.pos
	switch p.tok {
	case LOCAL:
		switch {
		case p.atomic > 0:
			p.notInAtomic(pos, "declaration")
		case !p.declsOK || p.depth > 2:
			p.error(pos, "local declarations must come first in the process body")
		}
		return &DeclStmt{Decl: p.parseVarsDecl()}
	case SEMICOLON:
		p.next()
		return &EmptyStmt{Semi: pos}
	case SKIP:
		p.next()
		return &SkipStmt{Skip: pos, Semi: p.expectSemi()}
	case FENCE:
		p.notInAtomic(pos, "fence")
		p.next()
		s := &FenceStmt{Fence: pos}
		p.parseFenceKind(s)
		s.Semi = p.expectSemi()
		return s
	case GOTO:
		p.notInAtomic(pos, "goto")
		p.next()
		s := &GotoStmt{Goto: pos, Label: p.parseIdent()}
		if s.Label.Name != "_" {
			p.gotos = append(p.gotos, s.Label)
		}
		s.Semi = p.expectSemi()
		return s
	case ASSUME, ASSERT:
		tok := p.tok
		p.next()
		p.expect(LPAREN)
		x := p.parseExpr()
		p.expect(RPAREN)
		semi := p.expectSemi()
		if tok == ASSUME {
			return &AssumeStmt{Assume: pos, X: x, Semi: semi}
		}
		return &AssertStmt{Assert: pos, X: x, Semi: semi}
	case LBRACE:
		return p.parseBlock()
	case IF:
		p.next()
		s := &IfStmt{If: pos, Cond: p.parseCond()}
		s.Then = p.parseBody()
		if p.tok == ELSE {
			p.next()
			s.Else = p.parseBody()
		}
		return s
	case WHILE:
		p.notInAtomic(pos, "while loop")
		p.next()
		s := &WhileStmt{While: pos, Cond: p.parseCond()}
		s.Body = p.parseBody()
		return s
	case FOR:
		p.notInAtomic(pos, "for loop")
		p.next()
		s := &ForStmt{For: pos}
		p.expect(LPAREN)
		s.Var = p.parseIdent()
		p.expect(IN)
		s.Lo = p.parseExpr()
		p.expect(RANGE)
		s.Hi = p.parseExpr()
		p.expect(RPAREN)
		p.inFor++
		s.Body = p.parseBody()
		p.inFor--
		return s
	case ATOMIC:
		p.notInAtomic(pos, "nested atomic")
		p.next()
		p.atomic++
		s := &AtomicStmt{Atomic: pos}
		if p.tok != LBRACE {
			p.errorExpected("'{' after atomic")
			s.Body = &BlockStmt{Lbrace: p.pos, Rbrace: p.pos}
			p.sync()
		} else {
			s.Body = p.parseBlock()
		}
		p.atomic--
		return s
	case IDENT:
		if (p.lit == "acquire" || p.lit == "release") && p.peek() == IDENT {
			return p.parseAnnotated()
		}
		if p.peek() == COLON {
			id := p.parseIdent()
			s := &LabeledStmt{Label: id, Colon: p.pos}
			p.next()
			switch {
			case p.atomic > 0:
				p.notInAtomic(id.Pos(), "label")
			case p.inFor > 0:
				p.error(id.Pos(), fmt.Sprintf("label %s inside a for body", id.Name))
			case !p.inProc:
			default:
				if prev, ok := p.labels[id.Name]; ok {
					p.error(id.Pos(), fmt.Sprintf("label %s already defined at line %d", id.Name, p.errs.file.Line(prev)))
				} else {
					p.labels[id.Name] = id.Pos()
				}
			}
			if p.tok == RBRACE || p.tok == EOF {
				p.errorExpected("statement after label")
				s.Stmt = &EmptyStmt{Semi: p.pos}
				return s
			}
			s.Stmt = p.parseStmt()
			return s
		}
		return p.parseAssign()
	case ELSE:
		p.error(pos, "else without if")
		p.next()
		return &BadStmt{From: pos, To: p.pos}
	}
	p.errorExpected("statement")
	p.sync()
	return &BadStmt{From: pos, To: p.pos}
}

// parseFenceKind reads the words after "fence": none (a full fence), one
// of fenceWords, or a set of orderingWords. They are not keywords
// (LANGUAGE.md): they may name variables elsewhere.
func (p *parser) parseFenceKind(s *FenceStmt) {
	if p.tok != IDENT {
		return
	}
	s.StorePos = p.pos
	if k, ok := fenceWords[p.lit]; ok {
		s.Kind = k
		p.next()
		return
	}
	var o Ordering
	for p.tok == IDENT {
		w, found := orderingOf(p.lit)
		o |= w
		if !found {
			p.error(p.pos, fmt.Sprintf("unknown fence kind %q (want store, load, release, tso, or loadload, loadstore, storeload, storestore)", p.lit))
			p.next()
			return
		}
		p.next()
	}
	s.Kind = MaskFence(o)
}

// parseAnnotated parses acquire r = x; or release x = e; (the words are
// not keywords: a statement never starts with two identifiers otherwise).
func (p *parser) parseAnnotated() Stmt {
	pos, word := p.pos, p.lit
	p.next()
	st := p.parseAssign()
	s, ok := st.(*AssignStmt)
	if !ok {
		return st
	}
	s.AnnPos = pos
	if word == "acquire" {
		s.Ann = Acquire
	} else {
		s.Ann = Release
	}
	if p.atomic > 0 {
		p.error(pos, word+" not allowed inside atomic")
	}
	if _, call := s.Rhs.(*CallExpr); call {
		p.error(pos, word+" applies to a read or a write, not to "+s.Rhs.(*CallExpr).Fun.Name+"(...)")
	}
	return s
}

// parseCond parses ( e ) or ( * ).
func (p *parser) parseCond() Expr {
	p.expect(LPAREN)
	var x Expr
	if p.tok == MUL && p.peek() == RPAREN {
		x = &StarExpr{Star: p.pos}
		p.next()
	} else {
		x = p.parseExpr()
	}
	p.expect(RPAREN)
	return x
}

func isCallName(name string) bool { return name == "cas" || name == "fetch_add" || name == "swap" }

// parseAssign parses lhs = rhs; with rhs an expression, * or a call.
func (p *parser) parseAssign() Stmt {
	pos := p.pos
	lhs := p.parseOperand()
	s := &AssignStmt{Lhs: lhs, TokPos: p.pos}
	switch lhs.(type) {
	case *Ident, *IndexExpr:
	default:
		p.error(pos, "expected a variable on the left of '='")
	}
	if p.tok != ASSIGN {
		p.errorExpected("'='")
		p.sync()
		return &BadStmt{From: pos, To: p.pos}
	}
	p.next()
	switch {
	case p.tok == MUL && p.peek() == SEMICOLON:
		s.Rhs = &StarExpr{Star: p.pos}
		p.next()
	case p.tok == IDENT && isCallName(p.lit) && p.peek() == LPAREN:
		if p.atomic > 0 {
			p.error(p.pos, p.lit+" not allowed inside atomic")
		}
		s.Rhs = p.parseCall()
		if p.tok != SEMICOLON {
			p.error(p.pos, s.Rhs.(*CallExpr).Fun.Name+"(...) must be the whole right-hand side of an assignment")
			p.sync()
			return s
		}
	default:
		s.Rhs = p.parseExpr()
	}
	s.Semi = p.expectSemi()
	return s
}

func (p *parser) parseCall() *CallExpr {
	c := &CallExpr{Fun: p.parseIdent(), Lparen: p.pos}
	p.expect(LPAREN)
	for p.tok != RPAREN && p.tok != EOF {
		c.Args = append(c.Args, p.parseExpr())
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	c.Rparen = p.expect(RPAREN)
	want := 2
	if c.Fun.Name == "cas" {
		want = 3
	}
	if len(c.Args) != want {
		p.error(c.Fun.Pos(), fmt.Sprintf("%s takes %d arguments, not %d", c.Fun.Name, want, len(c.Args)))
	}
	return c
}

// ---------------------------------------------------------------------------
// Expressions

func (p *parser) parseExpr() Expr { return p.parseBinary(LowestPrec + 1) }

func (p *parser) parseBinary(prec1 int) Expr {
	x := p.parseUnary()
	n := 0
	for {
		op := p.tok
		prec := op.Precedence()
		if prec < prec1 {
			break
		}
		pos := p.pos
		p.next()
		p.enter() // a chain of operators nests the tree too
		n++
		y := p.parseBinary(prec + 1)
		x = &BinaryExpr{X: x, OpPos: pos, Op: op, Y: y}
	}
	p.depth -= n
	return x
}

func (p *parser) parseUnary() Expr {
	switch p.tok {
	case SUB, NOT:
		pos, op := p.pos, p.tok
		p.next()
		p.enter()
		x := p.parseUnary()
		p.leave()
		return &UnaryExpr{OpPos: pos, Op: op, X: x}
	}
	return p.parseOperand()
}

func (p *parser) parseOperand() Expr {
	pos := p.pos
	switch p.tok {
	case IDENT:
		id := p.parseIdent()
		switch p.tok {
		case LBRACK:
			x := &IndexExpr{X: id, Lbrack: p.pos}
			p.next()
			p.enter()
			x.Index = p.parseExpr()
			p.leave()
			x.Rbrack = p.expect(RBRACK)
			return x
		case LPAREN:
			if isCallName(id.Name) {
				p.error(pos, id.Name+" is only allowed as the whole right-hand side of an assignment")
			} else {
				p.error(pos, "unknown function "+id.Name)
			}
			p.enter()
			p.parseExprList()
			p.leave()
			return &BadExpr{From: pos, To: p.pos}
		}
		return id
	case INT:
		x := &IntLit{ValuePos: pos, Lit: p.lit}
		v, err := strconv.ParseInt(p.lit, 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				p.error(pos, fmt.Sprintf("integer literal %s too large (more than 64 bits)", p.lit))
			} // else the scanner has reported the bad literal
		}
		x.Value = v
		p.next()
		return x
	case TRUE, FALSE:
		x := &BoolLit{ValuePos: pos, Value: p.tok == TRUE}
		p.next()
		return x
	case LPAREN:
		p.next()
		p.enter()
		x := p.parseExpr()
		p.leave()
		return &ParenExpr{Lparen: pos, X: x, Rparen: p.expect(RPAREN)}
	case MUL:
		p.error(pos, "* is only allowed as a condition of if or while, or as a right-hand side")
		p.next()
		return &BadExpr{From: pos, To: p.pos}
	}
	p.errorExpected("expression")
	return &BadExpr{From: pos, To: pos}
}

// parseExprList parses ( e, e, ... ) for error recovery.
func (p *parser) parseExprList() {
	p.expect(LPAREN)
	for p.tok != RPAREN && p.tok != EOF && p.tok != SEMICOLON {
		start := p.pos
		p.parseExpr()
		if p.tok == COMMA {
			p.next()
		} else if p.pos == start {
			break
		}
	}
	p.expect(RPAREN)
}
