package cfront

import (
	"modernc.org/cc/v4"

	"fencer/cs"
	"fencer/readkit"
)

// This file finds the statements that a macro call writes. cc gives every
// token of a macro's expansion (its body and its arguments alike) the
// position of the call's first character, so such a statement has no
// inside in the C text and no end of its own: the point after it is the
// end of the call (after the ')' of a function-like macro, or after the
// ';' that follows the call when the expansion ends there). A fence can
// go there only when the statement is the last one the call expands into;
// a point between two statements of one expansion is not in the text.

// findMacroCalls records, for each macro call that expands into
// statements, the last outermost statement of its expansion
// (t.lastOfCall), and keeps the table of macros.
func (t *translator) findMacroCalls(ast *cc.AST) {
	t.macros = ast.Macros
	t.lastOfCall = map[int]*cc.Statement{}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef || ed.Position().Filename != t.file.Name {
			continue
		}
		inspect(ed.FunctionDefinition.CompoundStatement, func(n any) bool {
			s, ok := n.(*cc.Statement)
			if !ok {
				return true
			}
			if start, ok := t.macroCall(s); ok {
				t.lastOfCall[start.Offset()] = s
				return false // the rest of the expansion
			}
			return true
		})
	}
}

// macroCall reports whether s begins with the expansion of a macro call
// and returns the call's position: its first token is not the text of the
// file at its position, or its first two tokens share one position.
func (t *translator) macroCall(s *cc.Statement) (cs.Pos, bool) {
	toks := cc.NodeTokens(s)
	if len(toks) == 0 {
		return cs.NoPos, false
	}
	start := t.pos(toks[0])
	if start == cs.NoPos {
		return cs.NoPos, false
	}
	if len(toks) > 1 && t.pos(toks[1]) == start {
		return start, true
	}
	src, text := t.file.Src, toks[0].Src()
	if start.Offset()+len(text) > len(src) || string(src[start.Offset():start.Offset()+len(text)]) != string(text) {
		return start, true
	}
	return cs.NoPos, false
}

// macroSpan returns the span of s in the C text when s is the last
// statement of a macro call's expansion: from the call to the end of s's
// last token when that token is of the file (the ';' after "M(x);"), else
// to the end of the call and a ';' that follows it. ok is false for any
// other statement.
func (p *proc) macroSpan(s *cc.Statement) (start, end cs.Pos, ok bool) {
	start, ok = p.t.macroCall(s)
	if !ok || p.t.lastOfCall[start.Offset()] != s {
		return cs.NoPos, cs.NoPos, false
	}
	end = p.stmtEnd(s)
	if toks := cc.NodeTokens(s); end != cs.NoPos && p.t.pos(toks[len(toks)-1]) == start {
		end = cs.NoPos // the last token is the expansion's, not the file's
	}
	if end == cs.NoPos {
		// The end of the call, with the empty statement ';' that may
		// follow it ("SET(x);" where SET's body ends with ';').
		end = p.t.callEnd(start)
		if end != cs.NoPos {
			if j := skipSpace(p.t.file.Src, end.Offset()); j < len(p.t.file.Src) && p.t.file.Src[j] == ';' {
				end = cs.PosAt(j + 1)
			}
		}
	}
	if end == cs.NoPos || end <= start {
		return cs.NoPos, cs.NoPos, false
	}
	return start, end, true
}

// callEnd returns the end of the macro call at start in the file: after
// its name, and for a function-like macro after the ')' that closes its
// arguments. It returns NoPos when the text there is not a call of a
// known macro.
func (t *translator) callEnd(start cs.Pos) cs.Pos {
	src := t.file.Src
	name := t.macroName(start)
	m := t.macros[name]
	j := start.Offset() + len(name)
	if name == "" || m == nil {
		return cs.NoPos
	}
	if !m.IsFnLike {
		return cs.PosAt(j)
	}
	j = skipSpace(src, j)
	if j >= len(src) || src[j] != '(' {
		return cs.NoPos
	}
	depth := 0
	for j < len(src) {
		switch c := src[j]; {
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return cs.PosAt(j + 1)
			}
		case c == '"' || c == '\'':
			j = skipQuoted(src, j)
			continue
		case c == '/' && j+1 < len(src) && (src[j+1] == '/' || src[j+1] == '*'):
			j = skipSpace(src, j)
			continue
		}
		j++
	}
	return cs.NoPos
}

// macroName is the name of the macro called at start.
func (t *translator) macroName(start cs.Pos) string {
	src := t.file.Src
	j := start.Offset()
	for j < len(src) && (readkit.IsLetter(src[j]) || readkit.IsDigit(src[j])) {
		j++
	}
	return string(src[start.Offset():j])
}

// skipSpace returns the offset of the first byte at or after i that is
// not white space, a comment or a line continuation.
func skipSpace(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r' || src[i] == '\f' || src[i] == '\v' || src[i] == '\\':
			i++
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			i += 2
		default:
			return i
		}
	}
	return len(src)
}

// skipQuoted returns the offset after the string or character literal
// that starts at i.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src) && src[i] != q && src[i] != '\n'; i++ {
		if src[i] == '\\' {
			i++
		}
	}
	return i + 1
}
