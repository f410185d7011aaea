package cs

import "fmt"

// This file holds the syntax tree that the parser builds and the lowering
// (lower.go) turns into a System. Every node knows its first position (Pos)
// and the position just past its last byte (End).

// Node is any node of the syntax tree.
type Node interface {
	Pos() Pos // the first byte of the node
	End() Pos // the byte just after the node
}

// Expr is an expression node. The interface is sealed.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node. The interface is sealed.
type Stmt interface {
	Node
	stmtNode()
}

// Decl is a top-level declaration node. The interface is sealed.
type Decl interface {
	Node
	declNode()
}

// Expressions.
type (
	// BadExpr is a placeholder for an expression with a syntax error.
	BadExpr struct{ From, To Pos }

	// Ident is a name.
	Ident struct {
		NamePos Pos
		Name    string
	}

	// IntLit is a decimal integer literal.
	IntLit struct {
		ValuePos Pos
		Lit      string
		Value    int64
	}

	// BoolLit is true (1) or false (0).
	BoolLit struct {
		ValuePos Pos
		Value    bool
	}

	// StarExpr is "*": a nondeterministic choice, allowed only as the
	// condition of if and while, as the right-hand side of an assignment and
	// as an initial value.
	StarExpr struct{ Star Pos }

	// IndexExpr is an array element a[e].
	IndexExpr struct {
		X      *Ident
		Lbrack Pos
		Index  Expr
		Rbrack Pos
	}

	// ParenExpr is (e).
	ParenExpr struct {
		Lparen Pos
		X      Expr
		Rparen Pos
	}

	// UnaryExpr is -e or !e.
	UnaryExpr struct {
		OpPos Pos
		Op    Token // SUB or NOT
		X     Expr
	}

	// BinaryExpr is x op y.
	BinaryExpr struct {
		X     Expr
		OpPos Pos
		Op    Token
		Y     Expr
	}

	// CallExpr is cas(x, e1, e2), fetch_add(x, e) or swap(x, e); it is only
	// allowed as the whole right-hand side of an assignment.
	CallExpr struct {
		Fun    *Ident
		Lparen Pos
		Args   []Expr
		Rparen Pos
	}
)

func (x *BadExpr) Pos() Pos    { return x.From }
func (x *Ident) Pos() Pos      { return x.NamePos }
func (x *IntLit) Pos() Pos     { return x.ValuePos }
func (x *BoolLit) Pos() Pos    { return x.ValuePos }
func (x *StarExpr) Pos() Pos   { return x.Star }
func (x *IndexExpr) Pos() Pos  { return x.X.Pos() }
func (x *ParenExpr) Pos() Pos  { return x.Lparen }
func (x *UnaryExpr) Pos() Pos  { return x.OpPos }
func (x *BinaryExpr) Pos() Pos { return x.X.Pos() }
func (x *CallExpr) Pos() Pos   { return x.Fun.Pos() }

func (x *BadExpr) End() Pos   { return x.To }
func (x *Ident) End() Pos     { return x.NamePos + Pos(len(x.Name)) }
func (x *IntLit) End() Pos    { return x.ValuePos + Pos(len(x.Lit)) }
func (x *StarExpr) End() Pos  { return x.Star + 1 }
func (x *IndexExpr) End() Pos { return x.Rbrack + 1 }
func (x *ParenExpr) End() Pos { return x.Rparen + 1 }
func (x *UnaryExpr) End() Pos { return x.X.End() }
func (x *BinaryExpr) End() Pos {
	return x.Y.End()
}
func (x *CallExpr) End() Pos { return x.Rparen + 1 }
func (x *BoolLit) End() Pos {
	if x.Value {
		return x.ValuePos + 4
	}
	return x.ValuePos + 5
}

func (*BadExpr) exprNode()    {}
func (*Ident) exprNode()      {}
func (*IntLit) exprNode()     {}
func (*BoolLit) exprNode()    {}
func (*StarExpr) exprNode()   {}
func (*IndexExpr) exprNode()  {}
func (*ParenExpr) exprNode()  {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*CallExpr) exprNode()   {}

// Statements.
type (
	// BadStmt is a placeholder for a statement with a syntax error.
	BadStmt struct{ From, To Pos }

	// DeclStmt is a local declaration at the start of a process body.
	DeclStmt struct{ Decl *VarsDecl }

	// EmptyStmt is a lone ";" (it does nothing, like skip).
	EmptyStmt struct{ Semi Pos }

	// AssignStmt is lhs = rhs; where lhs is an *Ident or an *IndexExpr and
	// rhs is an expression, a *StarExpr or a *CallExpr.
	//
	// An annotated assignment, acquire r = x; or release x = e;, has Ann
	// Acquire or Release and the word at AnnPos. With a call on the right
	// (cas, fetch_add, swap), Ann is the order of the atomic step, as
	// AtomicStmt.Ann (set by readers; the .cs syntax has none).
	AssignStmt struct {
		Lhs    Expr
		TokPos Pos // the '='
		Rhs    Expr
		Semi   Pos
		Ann    Ann
		AnnPos Pos
		// AddrDeps are locals that the address of the statement's shared
		// access was computed from (set by readers of formats with address
		// dependencies, such as a litmus test's LDR X0,[X1,X2]); the .cs
		// syntax has none. They lower to Op.Addr of the access: of the
		// write when the statement writes, else of its single read.
		AddrDeps []*Ident
	}

	// AssumeStmt is assume(x);
	AssumeStmt struct {
		Assume Pos
		X      Expr
		Semi   Pos
	}

	// AssertStmt is assert(x);
	AssertStmt struct {
		Assert Pos
		X      Expr
		Semi   Pos
	}

	// FenceStmt is fence; (Kind FullFence), or fence WORDS; with the
	// first word at StorePos (fence store;, fence load;, fence loadload
	// storestore;: FenceKind.Syntax).
	FenceStmt struct {
		Fence    Pos
		Kind     FenceKind
		StorePos Pos // the first word of the kind, or NoPos
		Semi     Pos
	}

	// SkipStmt is skip;
	SkipStmt struct{ Skip, Semi Pos }

	// GotoStmt is goto L;
	GotoStmt struct {
		Goto  Pos
		Label *Ident
		Semi  Pos
	}

	// BlockStmt is { S... }.
	BlockStmt struct {
		Lbrace Pos
		List   []Stmt
		Rbrace Pos
	}

	// IfStmt is if (Cond) Then [else Else]. Cond may be a *StarExpr.
	IfStmt struct {
		If   Pos
		Cond Expr
		Then Stmt
		Else Stmt // or nil
	}

	// WhileStmt is while (Cond) Body. Cond may be a *StarExpr.
	WhileStmt struct {
		While Pos
		Cond  Expr
		Body  Stmt
	}

	// ForStmt is for (Var in Lo..Hi) Body, unrolled at compile time.
	ForStmt struct {
		For    Pos
		Var    *Ident
		Lo, Hi Expr
		Body   Stmt
	}

	// LabeledStmt is Label: Stmt.
	LabeledStmt struct {
		Label *Ident
		Colon Pos
		Stmt  Stmt
	}

	// AtomicStmt is atomic { ... }.
	//
	// Ann is the order of the step under the axiomatic models, set by
	// readers (0: seq_cst, acquire and release; Relaxed: none).
	AtomicStmt struct {
		Atomic Pos
		Body   *BlockStmt
		Ann    Ann
	}
)

func (s *BadStmt) Pos() Pos     { return s.From }
func (s *DeclStmt) Pos() Pos    { return s.Decl.Pos() }
func (s *EmptyStmt) Pos() Pos   { return s.Semi }
func (s *AssignStmt) Pos() Pos  { return s.Lhs.Pos() }
func (s *AssumeStmt) Pos() Pos  { return s.Assume }
func (s *AssertStmt) Pos() Pos  { return s.Assert }
func (s *FenceStmt) Pos() Pos   { return s.Fence }
func (s *SkipStmt) Pos() Pos    { return s.Skip }
func (s *GotoStmt) Pos() Pos    { return s.Goto }
func (s *BlockStmt) Pos() Pos   { return s.Lbrace }
func (s *IfStmt) Pos() Pos      { return s.If }
func (s *WhileStmt) Pos() Pos   { return s.While }
func (s *ForStmt) Pos() Pos     { return s.For }
func (s *LabeledStmt) Pos() Pos { return s.Label.Pos() }
func (s *AtomicStmt) Pos() Pos  { return s.Atomic }

func (s *BadStmt) End() Pos     { return s.To }
func (s *DeclStmt) End() Pos    { return s.Decl.End() }
func (s *EmptyStmt) End() Pos   { return s.Semi + 1 }
func (s *AssignStmt) End() Pos  { return s.Semi + 1 }
func (s *AssumeStmt) End() Pos  { return s.Semi + 1 }
func (s *AssertStmt) End() Pos  { return s.Semi + 1 }
func (s *FenceStmt) End() Pos   { return s.Semi + 1 }
func (s *SkipStmt) End() Pos    { return s.Semi + 1 }
func (s *GotoStmt) End() Pos    { return s.Semi + 1 }
func (s *BlockStmt) End() Pos   { return s.Rbrace + 1 }
func (s *WhileStmt) End() Pos   { return s.Body.End() }
func (s *ForStmt) End() Pos     { return s.Body.End() }
func (s *LabeledStmt) End() Pos { return s.Stmt.End() }
func (s *AtomicStmt) End() Pos  { return s.Body.End() }
func (s *IfStmt) End() Pos {
	if s.Else != nil {
		return s.Else.End()
	}
	return s.Then.End()
}

func (*BadStmt) stmtNode()     {}
func (*DeclStmt) stmtNode()    {}
func (*EmptyStmt) stmtNode()   {}
func (*AssignStmt) stmtNode()  {}
func (*AssumeStmt) stmtNode()  {}
func (*AssertStmt) stmtNode()  {}
func (*FenceStmt) stmtNode()   {}
func (*SkipStmt) stmtNode()    {}
func (*GotoStmt) stmtNode()    {}
func (*BlockStmt) stmtNode()   {}
func (*IfStmt) stmtNode()      {}
func (*WhileStmt) stmtNode()   {}
func (*ForStmt) stmtNode()     {}
func (*LabeledStmt) stmtNode() {}
func (*AtomicStmt) stmtNode()  {}

// Declarations.
type (
	// BadDecl is a placeholder for a declaration with a syntax error.
	BadDecl struct{ From, To Pos }

	// ConstDecl is const Name = Value;
	ConstDecl struct {
		Const Pos
		Name  *Ident
		Value Expr
		Semi  Pos
	}

	// VarsDecl is "shared specs;" at top level or "local specs;" in a
	// process (then wrapped in a DeclStmt).
	VarsDecl struct {
		Keyword Pos
		Tok     Token // SHARED or LOCAL
		Specs   []*VarSpec
		Semi    Pos
	}

	// ProcDecl is process Name { ... } or, with Index set, the template
	// process Name[Index in Lo..Hi] { ... }.
	ProcDecl struct {
		Process Pos
		Name    *Ident
		Index   *Ident // or nil
		Lo, Hi  Expr   // nil unless Index is set
		Body    *BlockStmt
	}

	// ForbiddenDecl is forbidden A@l1, B@l2, ...;
	ForbiddenDecl struct {
		Forbidden Pos
		Items     []*ProcLabel
		Semi      Pos
	}

	// MutexDecl is mutex l;
	MutexDecl struct {
		Mutex Pos
		Label *Ident
		Semi  Pos
	}
)

// VarSpec is one declared name: Name, Name[Size], with an optional "= Value"
// (Value is a *StarExpr for "= *").
type VarSpec struct {
	Name  *Ident
	Size  Expr // or nil for a scalar
	Value Expr // or nil
}

// ProcLabel is Proc@Label or Proc[Index]@Label in a forbidden declaration.
type ProcLabel struct {
	Proc  *Ident
	Index Expr // or nil
	At    Pos
	Label *Ident
}

func (d *BadDecl) Pos() Pos       { return d.From }
func (d *ConstDecl) Pos() Pos     { return d.Const }
func (d *VarsDecl) Pos() Pos      { return d.Keyword }
func (d *ProcDecl) Pos() Pos      { return d.Process }
func (d *ForbiddenDecl) Pos() Pos { return d.Forbidden }
func (d *MutexDecl) Pos() Pos     { return d.Mutex }

func (d *BadDecl) End() Pos       { return d.To }
func (d *ConstDecl) End() Pos     { return d.Semi + 1 }
func (d *VarsDecl) End() Pos      { return d.Semi + 1 }
func (d *ProcDecl) End() Pos      { return d.Body.End() }
func (d *ForbiddenDecl) End() Pos { return d.Semi + 1 }
func (d *MutexDecl) End() Pos     { return d.Semi + 1 }

func (*BadDecl) declNode()       {}
func (*ConstDecl) declNode()     {}
func (*VarsDecl) declNode()      {}
func (*ProcDecl) declNode()      {}
func (*ForbiddenDecl) declNode() {}
func (*MutexDecl) declNode()     {}

// Program is the syntax tree of one source file.
type Program struct {
	Decls []Decl
}

// A Visitor's Visit method is called by Walk for each node; if it returns a
// non-nil w, Walk visits the children of the node with w, then calls
// w.Visit(nil).
type Visitor interface {
	Visit(n Node) (w Visitor)
}

// Walk traverses the tree rooted at n depth-first. It panics on a node type
// it does not know (a bug in this package).
func Walk(v Visitor, n Node) {
	if v = v.Visit(n); v == nil {
		return
	}
	walkExpr := func(e Expr) {
		if e != nil {
			Walk(v, e)
		}
	}
	walkStmt := func(s Stmt) {
		if s != nil {
			Walk(v, s)
		}
	}
	switch n := n.(type) {
	case *BadExpr, *Ident, *IntLit, *BoolLit, *StarExpr:
	case *IndexExpr:
		Walk(v, n.X)
		walkExpr(n.Index)
	case *ParenExpr:
		walkExpr(n.X)
	case *UnaryExpr:
		walkExpr(n.X)
	case *BinaryExpr:
		walkExpr(n.X)
		walkExpr(n.Y)
	case *CallExpr:
		Walk(v, n.Fun)
		for _, a := range n.Args {
			walkExpr(a)
		}

	case *BadStmt, *EmptyStmt, *FenceStmt, *SkipStmt:
	case *DeclStmt:
		Walk(v, n.Decl)
	case *AssignStmt:
		walkExpr(n.Lhs)
		walkExpr(n.Rhs)
	case *AssumeStmt:
		walkExpr(n.X)
	case *AssertStmt:
		walkExpr(n.X)
	case *GotoStmt:
		Walk(v, n.Label)
	case *BlockStmt:
		for _, s := range n.List {
			walkStmt(s)
		}
	case *IfStmt:
		walkExpr(n.Cond)
		walkStmt(n.Then)
		walkStmt(n.Else)
	case *WhileStmt:
		walkExpr(n.Cond)
		walkStmt(n.Body)
	case *ForStmt:
		Walk(v, n.Var)
		walkExpr(n.Lo)
		walkExpr(n.Hi)
		walkStmt(n.Body)
	case *LabeledStmt:
		Walk(v, n.Label)
		walkStmt(n.Stmt)
	case *AtomicStmt:
		Walk(v, n.Body)

	case *BadDecl:
	case *ConstDecl:
		Walk(v, n.Name)
		walkExpr(n.Value)
	case *VarsDecl:
		for _, sp := range n.Specs {
			Walk(v, sp.Name)
			walkExpr(sp.Size)
			walkExpr(sp.Value)
		}
	case *ProcDecl:
		Walk(v, n.Name)
		if n.Index != nil {
			Walk(v, n.Index)
			walkExpr(n.Lo)
			walkExpr(n.Hi)
		}
		Walk(v, n.Body)
	case *ForbiddenDecl:
		for _, it := range n.Items {
			Walk(v, it.Proc)
			walkExpr(it.Index)
			Walk(v, it.Label)
		}
	case *MutexDecl:
		Walk(v, n.Label)
	default:
		panic(fmt.Sprintf("cs.Walk: unexpected node type %T", n))
	}
	v.Visit(nil)
}

type inspector func(Node) bool

func (f inspector) Visit(n Node) Visitor {
	if n != nil && f(n) {
		return f
	}
	return nil
}

// Inspect calls f on every node of the tree rooted at n, parents first; if
// f returns false the children of that node are skipped.
func Inspect(n Node, f func(Node) bool) { Walk(inspector(f), n) }
