package cfront

import (
	"fmt"
	"strconv"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// handleKey names a pthread_t variable or element: t, t[2].
func (p *proc) handleKey(e cc.ExpressionNode, pos cs.Pos) string {
	switch x := unparen(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			if d, ok := x.ResolvedTo().(*cc.Declarator); ok {
				return fmt.Sprintf("%p", d)
			}
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionIndex {
			k, ok := p.konst(x.ExpressionList)
			if !ok {
				refuse(pos, "a thread handle whose index is not known after unrolling")
			}
			return p.handleKey(x.PostfixExpression, pos) + "[" + strconv.FormatInt(k, 10) + "]"
		}
	}
	refuse(pos, "a thread handle other than a variable or array element")
	return ""
}

// create translates pthread_create(&t, attr, f, arg) and thrd_create(&t,
// f, arg) run by main.
func (p *proc) create(name string, args []cc.ExpressionNode, pos cs.Pos) {
	if !p.isMain {
		refuse(pos, "%s outside main", name)
	}
	if p.atomic > 0 {
		refuse(pos, "%s inside an atomic block", name)
	}
	var h, fn, arg cc.ExpressionNode
	if name == "pthread_create" {
		nargs(name, args, 4, pos)
		h, fn, arg = args[0], args[2], args[3]
		if v, ok := p.konst(args[1]); !ok || v != 0 {
			if _, isAddr := unparen(args[1]).(*cc.UnaryExpression); !isAddr {
				refuse(pos, "thread attributes")
			}
		}
	} else {
		nargs(name, args, 3, pos)
		h, fn, arg = args[0], args[1], args[2]
	}
	u, ok := unparen(h).(*cc.UnaryExpression)
	if !ok || u.Case != cc.UnaryExpressionAddrof {
		refuse(pos, "%s with a handle other than &variable", name)
	}
	key := p.handleKey(u.CastExpression, pos)
	fe := unparen(fn)
	if a, ok := fe.(*cc.UnaryExpression); ok && a.Case == cc.UnaryExpressionAddrof {
		fe = unparen(a.CastExpression)
	}
	fe = uncast(fe)
	id, ok := fe.(*cc.PrimaryExpression)
	if !ok || id.Case != cc.PrimaryExpressionIdent || p.t.funcs[id.Token.SrcStr()] == nil {
		refuse(pos, "a thread start routine other than a function defined in this file")
	}
	fi := p.t.funcs[id.Token.SrcStr()]
	if fi.name == "main" {
		refuse(pos, "a thread running main")
	}
	th := &thread{fi: fi, handle: key, pos: p.t.pos(fi.def)}
	th.arg = p.threadArg(arg, pos)
	k := len(p.t.threads)
	th.goVar = uniqueName("_go"+strconv.Itoa(k), p.t.taken)
	th.doneVar = uniqueName("_done"+strconv.Itoa(k), p.t.taken)
	p.t.sharedNames[th.goVar], p.t.sharedNames[th.doneVar] = true, true
	p.t.threads = append(p.t.threads, th)
	p.handles[key] = th
	// A system call: main's buffer drains, then the thread starts.
	p.emit(synAtomic([]cs.Stmt{synAssign(ident(th.goVar, pos), lit(1, pos), pos)}, pos))
}

// threadArg evaluates the argument of a created thread: an integer cast
// to a pointer, or the address of an array element.
func (p *proc) threadArg(e cc.ExpressionNode, pos cs.Pos) argVal {
	if v, ok := p.konst(e); ok {
		return argVal{konst: true, val: v, pos: pos, isNull: v == 0}
	}
	x := uncast(e)
	if v, ok := p.konst(x); ok {
		return argVal{konst: true, val: v, pos: pos}
	}
	if u, ok := x.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		lv := p.lval(u.CastExpression)
		if !lv.kok {
			refuse(pos, "a thread argument &a[i] whose index is not known after unrolling")
		}
		if lv.l != nil {
			// An element of main's local array: its value must be known.
			if lv.l.konst {
				return argVal{konst: true, val: lv.l.val, pos: pos}
			}
			if v, ok := p.known[elemKey(lv)]; ok {
				return argVal{konst: true, val: v, pos: pos}
			}
			refuse(pos, "a thread argument pointing to a local of main whose value is not a known constant")
		}
		if lv.v.isConst && lv.k >= 0 && lv.k < int64(len(lv.v.init)) {
			return argVal{konst: true, val: lv.v.init[lv.k], pos: pos}
		}
		if v, ok := p.known[elemKey(lv)]; ok && !p.t.writtenByThreads(lv.v) {
			// Written by main before the create, never by a thread: the
			// thread reads this constant.
			return argVal{konst: true, val: v, pos: pos}
		}
		return argVal{ptr: lv.v, idx: int(lv.k), pos: pos}
	}
	refuse(pos, "a thread argument other than an integer constant or &array[i]")
	return argVal{}
}

// join translates pthread_join(t, NULL) and thrd_join(t, NULL).
func (p *proc) join(name string, args []cc.ExpressionNode, pos cs.Pos) {
	if !p.isMain {
		refuse(pos, "%s outside main", name)
	}
	nargs(name, args, 2, pos)
	if v, ok := p.konst(args[1]); !ok || v != 0 {
		refuse(pos, "%s with a result pointer (use NULL)", name)
	}
	th := p.handles[p.handleKey(args[0], pos)]
	if th == nil {
		failAt(pos, "%s of a thread main has not created", name)
	}
	p.emit(synAtomic([]cs.Stmt{synAssume(eq(ident(th.doneVar, pos), lit(1, pos)), pos)}, pos))
}
