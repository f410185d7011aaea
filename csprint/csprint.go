// Package csprint prints a .cs syntax tree (cs.Program) as .cs source. The
// readers of other formats (rmm, litmus) build such a tree; "fencer show
// --cs" prints it, so that a Memorax model or a litmus test can be read,
// and edited, as the .cs program fencer analyses.
//
// The output parses back (cs.Parse) to the same automata: statements keep
// their structure, expressions get the parentheses their precedence needs,
// and processes named as instances without a template (the C reader's
// "worker[0]") become a template or processes of their own (instances.go).
package csprint

import (
	"fmt"
	"io"
	"strings"

	"fencer/cs"
)

// Fprint writes prog as .cs source to w.
func Fprint(w io.Writer, prog *cs.Program) error { return FprintComments(w, prog, nil) }

// FprintComments is Fprint with a "// comment" at the end of the line of
// each statement (its head for if, while, for and atomic) for which
// comment returns a non-empty text; the C reader names the line of the C
// file that way.
func FprintComments(w io.Writer, prog *cs.Program, comment func(cs.Stmt) string) error {
	p := &printer{comment: comment}
	prog = instances(prog)
	for i, d := range prog.Decls {
		if i > 0 {
			if _, isProc := d.(*cs.ProcDecl); isProc {
				p.b.WriteString("\n")
			} else if _, wasProc := prog.Decls[i-1].(*cs.ProcDecl); wasProc {
				p.b.WriteString("\n")
			}
		}
		p.decl(d)
	}
	_, err := io.WriteString(w, p.b.String())
	return err
}

type printer struct {
	b       strings.Builder
	indent  int
	comment func(cs.Stmt) string // or nil
}

// note is the comment of s, " // text", or "".
func (p *printer) note(s cs.Stmt) string {
	if p.comment == nil {
		return ""
	}
	if c := p.comment(s); c != "" {
		return "  // " + c
	}
	return ""
}

func (p *printer) line(format string, args ...any) {
	p.b.WriteString(strings.Repeat("  ", p.indent))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteString("\n")
}

func (p *printer) decl(d cs.Decl) {
	switch d := d.(type) {
	case *cs.ConstDecl:
		p.line("const %s = %s;", d.Name.Name, expr(d.Value))
	case *cs.VarsDecl:
		kw := "shared"
		if d.Tok == cs.LOCAL {
			kw = "local"
		}
		p.line("%s %s;", kw, specs(d.Specs))
	case *cs.ProcDecl:
		head := "process " + d.Name.Name
		if d.Index != nil {
			head += fmt.Sprintf("[%s in %s..%s]", d.Index.Name, expr(d.Lo), expr(d.Hi))
		}
		p.line("%s {", head)
		p.indent++
		for _, s := range d.Body.List {
			p.stmt(s)
		}
		p.indent--
		p.line("}")
	case *cs.ForbiddenDecl:
		var items []string
		for _, it := range d.Items {
			proc := it.Proc.Name
			if it.Index != nil {
				proc += "[" + expr(it.Index) + "]"
			}
			items = append(items, proc+"@"+it.Label.Name)
		}
		p.line("forbidden %s;", strings.Join(items, ", "))
	case *cs.MutexDecl:
		p.line("mutex %s;", d.Label.Name)
	default:
		p.line("/* %T */", d)
	}
}

func specs(list []*cs.VarSpec) string {
	var parts []string
	for _, sp := range list {
		s := sp.Name.Name
		if sp.Size != nil {
			s += "[" + expr(sp.Size) + "]"
		}
		if sp.Value != nil {
			s += " = " + expr(sp.Value)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// stmt prints s on its own lines.
func (p *printer) stmt(s cs.Stmt) {
	switch s := s.(type) {
	case *cs.LabeledStmt:
		p.indent--
		p.line("%s:", s.Label.Name)
		p.indent++
		p.stmt(s.Stmt)
	case *cs.BlockStmt:
		p.line("{")
		p.indent++
		for _, t := range s.List {
			p.stmt(t)
		}
		p.indent--
		p.line("}")
	case *cs.IfStmt:
		p.block("if ("+expr(s.Cond)+") {"+p.note(s), s.Then)
		for s.Else != nil {
			if elif, ok := s.Else.(*cs.IfStmt); ok {
				p.block("} else if ("+expr(elif.Cond)+") {", elif.Then)
				s = elif
				continue
			}
			p.block("} else {", s.Else)
			break
		}
		p.line("}")
	case *cs.WhileStmt:
		p.block("while ("+expr(s.Cond)+") {"+p.note(s), s.Body)
		p.line("}")
	case *cs.ForStmt:
		p.block(fmt.Sprintf("for (%s in %s..%s) {", s.Var.Name, expr(s.Lo), expr(s.Hi)), s.Body)
		p.line("}")
	case *cs.AtomicStmt:
		p.block("atomic {"+annNote(s.Ann)+p.note(s), s.Body)
		p.line("}")
	default:
		p.line("%s%s", simple(s), p.note(s))
	}
}

// block prints head, then the statements of body (a block's own, or
// body alone) one level deeper; the caller closes the brace.
func (p *printer) block(head string, body cs.Stmt) {
	p.line("%s", head)
	p.indent++
	if b, ok := body.(*cs.BlockStmt); ok {
		for _, t := range b.List {
			p.stmt(t)
		}
	} else {
		p.stmt(body)
	}
	p.indent--
}

// simple is a statement without sub-statements.
func simple(s cs.Stmt) string {
	switch s := s.(type) {
	case *cs.DeclStmt:
		kw := "local"
		if s.Decl.Tok == cs.SHARED {
			kw = "shared"
		}
		return kw + " " + specs(s.Decl.Specs) + ";"
	case *cs.EmptyStmt:
		return ";"
	case *cs.AssignStmt:
		text := expr(s.Lhs) + " = " + expr(s.Rhs) + ";"
		if _, call := s.Rhs.(*cs.CallExpr); call {
			// the .cs syntax has no order for cas, fetch_add, swap
			return text + annNote(s.Ann)
		}
		switch {
		case s.Ann == cs.Acquire || s.Ann == cs.Release:
			text = s.Ann.String() + " " + text
		case s.Ann != 0:
			text += annNote(s.Ann)
		}
		if len(s.AddrDeps) > 0 {
			var deps []string
			for _, d := range s.AddrDeps {
				deps = append(deps, d.Name)
			}
			text += " // address depends on " + strings.Join(deps, ", ")
		}
		return text
	case *cs.AssumeStmt:
		return "assume(" + expr(s.X) + ");"
	case *cs.AssertStmt:
		return "assert(" + expr(s.X) + ");"
	case *cs.FenceStmt:
		return s.Kind.Syntax()
	case *cs.SkipStmt:
		return "skip;"
	case *cs.GotoStmt:
		return "goto " + s.Label.Name + ";"
	}
	return fmt.Sprintf("/* %T */", s)
}

func expr(e cs.Expr) string { return exprPrec(e, cs.LowestPrec) }

// exprPrec prints e inside an operator of precedence prec: with
// parentheses when e binds less tightly.
func exprPrec(e cs.Expr, prec int) string {
	switch e := e.(type) {
	case *cs.Ident:
		return e.Name
	case *cs.IntLit:
		return e.Lit
	case *cs.BoolLit:
		if e.Value {
			return "true"
		}
		return "false"
	case *cs.StarExpr:
		return "*"
	case *cs.IndexExpr:
		return e.X.Name + "[" + expr(e.Index) + "]"
	case *cs.ParenExpr:
		return exprPrec(e.X, prec)
	case *cs.UnaryExpr:
		op := "-"
		if e.Op == cs.NOT {
			op = "!"
		}
		x := exprPrec(e.X, cs.UnaryPrec)
		if strings.HasPrefix(x, "-") {
			x = " " + x
		}
		return op + x
	case *cs.BinaryExpr:
		q := e.Op.Precedence()
		s := exprPrec(e.X, q) + " " + e.Op.String() + " " + exprPrec(e.Y, q+1)
		if q < prec {
			s = "(" + s + ")"
		}
		return s
	case *cs.CallExpr:
		var args []string
		for _, a := range e.Args {
			args = append(args, expr(a))
		}
		return e.Fun.Name + "(" + strings.Join(args, ", ") + ")"
	}
	return fmt.Sprintf("/* %T */", e)
}

// annNote is a comment that names an order the .cs syntax cannot write
// (an atomic step's, LDAPR's acquirepc), or "" for none.
func annNote(a cs.Ann) string {
	if a == 0 {
		return ""
	}
	return " // order: " + a.String()
}
