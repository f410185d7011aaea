package cfront

import (
	"strings"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// atomicCall translates the C11 atomic operations and the GCC __atomic_
// and __sync_ builtins (docs/c.md has the table).
func (p *proc) atomicCall(name string, args []cc.ExpressionNode, pos cs.Pos) cs.Expr {
	base := strings.TrimSuffix(name, "_explicit")
	explicit := base != name
	orderArg := func(i int) int {
		if explicit {
			if i >= len(args) {
				failAt(pos, "%s: missing memory order", name)
			}
			return p.order(args[i], pos)
		}
		return orderSeqCst
	}
	// rmwOrder is the memory order of a read-modify-write whose order
	// is argument i (-1: none, seq_cst), read only under a weak target
	// (the default mapping has one locked step for every order).
	rmwOrder := func(i int) int {
		if !p.t.target.weak() || i < 0 {
			return orderSeqCst
		}
		if i >= len(args) {
			failAt(pos, "%s: missing memory order", name)
		}
		return p.order(args[i], pos)
	}
	// orderIdx is i for the _explicit forms and GCC's __atomic builtins,
	// else -1.
	orderIdx := func(i int) int {
		if explicit || strings.HasPrefix(base, "__atomic_") {
			return i
		}
		return -1
	}
	switch base {
	case "atomic_load", "__atomic_load_n":
		n := 1
		if explicit || base == "__atomic_load_n" {
			n = 2
		}
		nargs(name, args, n, pos)
		lv := p.addr(args[0], pos)
		if !p.t.target.weak() {
			return p.load(lv, orderSeqCst)
		}
		if n == 1 {
			return p.loadAt(lv, orderSeqCst, nil)
		}
		return p.loadAt(lv, p.order(args[1], pos), p.t.orderArgAt(name, pos, 1, !explicit))
	case "atomic_store", "atomic_init", "__atomic_store_n":
		n := 2
		if explicit || base == "__atomic_store_n" {
			n = 3
		}
		nargs(name, args, n, pos)
		lv := p.addr(args[0], pos)
		v := p.rv(args[1])
		o := orderSeqCst
		var arg *orderSpan
		switch {
		case base == "atomic_init":
			o = orderRelaxed
		case base == "__atomic_store_n":
			o = p.order(args[2], pos)
			arg = p.t.orderArgAt(name, pos, 2, true)
		case explicit:
			o = orderArg(2)
			arg = p.t.orderArgAt(name, pos, 2, false)
		}
		p.storeAt(lv, v, o, pos, arg)
		return nil
	case "atomic_exchange", "__atomic_exchange_n", "__sync_lock_test_and_set":
		lv := p.addr(args[0], pos)
		if len(args) < 2 {
			failAt(pos, "%s: missing argument", name)
		}
		v := p.localOnly(p.rv(args[1]), pos)
		o := rmwOrder(orderIdx(2))
		if base == "__sync_lock_test_and_set" && p.t.target.weak() {
			o = orderAcquire // "not a full barrier, but rather an acquire barrier" (GCC)
		}
		old := p.tmp("old", pos)
		p.rmwOrd(lv, o, pos, func(x cs.Expr) []cs.Stmt {
			return []cs.Stmt{synAssign(ident(old, pos), x, pos), synAssign(x, v, pos)}
		})
		return ident(old, pos)
	case "__sync_lock_release":
		nargs(name, args, 1, pos)
		p.store(p.addr(args[0], pos), lit(0, pos), orderRelease, pos)
		return nil
	case "atomic_compare_exchange_strong", "atomic_compare_exchange_weak", "__atomic_compare_exchange_n":
		if len(args) < 3 {
			failAt(pos, "%s: missing argument", name)
		}
		if strings.Contains(base, "weak") || base == "__atomic_compare_exchange_n" {
			p.t.warn(pos, "weak", "a weak compare-and-swap never fails spuriously in the model (as a strong one); a run where it fails spuriously on real hardware is not explored")
		}
		lv := p.addr(args[0], pos)
		u, ok := unparen(args[1]).(*cc.UnaryExpression)
		if !ok || u.Case != cc.UnaryExpressionAddrof {
			refuse(pos, "%s with an expected value other than &variable", name)
		}
		exp := p.lval(u.CastExpression)
		expV := p.localOnly(p.load(exp, orderPlain), pos)
		des := p.localOnly(p.rv(args[2]), pos)
		o, fail := orderSeqCst, orderSeqCst
		if i := orderIdx(3); i >= 0 {
			if base == "__atomic_compare_exchange_n" {
				i++ // after the weak flag
			}
			fail = rmwOrder(i + 1)
			o = casOrder(rmwOrder(i), fail)
		}
		p.t.noteCASFailure(pos, fail)
		old, ok2 := p.cas(lv, expV, des, o, pos)
		// On failure the expected value becomes the current one.
		upd := p.sub(func() { p.store(exp, ident(old, pos), orderPlain, pos) })
		p.emit(&cs.IfStmt{If: pos, Cond: eq(ident(ok2, pos), lit(0, pos)), Then: synBlock(upd, pos)})
		return ident(ok2, pos)
	case "__sync_bool_compare_and_swap", "__sync_val_compare_and_swap":
		nargs(name, args, 3, pos)
		lv := p.addr(args[0], pos)
		e := p.localOnly(p.rv(args[1]), pos)
		d := p.localOnly(p.rv(args[2]), pos)
		old, ok := p.cas(lv, e, d, orderSeqCst, pos)
		if base == "__sync_bool_compare_and_swap" {
			return ident(ok, pos)
		}
		return ident(old, pos)
	case "atomic_fetch_add", "atomic_fetch_sub", "__atomic_fetch_add", "__atomic_fetch_sub",
		"__atomic_add_fetch", "__atomic_sub_fetch", "__sync_fetch_and_add", "__sync_fetch_and_sub",
		"__sync_add_and_fetch", "__sync_sub_and_fetch":
		if len(args) < 2 {
			failAt(pos, "%s: missing argument", name)
		}
		lv := p.addr(args[0], pos)
		v := p.rv(args[1])
		if strings.Contains(base, "sub") {
			v = &cs.UnaryExpr{OpPos: pos, Op: cs.SUB, X: paren(v)}
		}
		if lv.v.typ != nil && lv.v.typ.Size() < 4 {
			p.t.warn(pos, "wrap "+lv.v.cname, "%s (%s) is a mathematical integer in the model: it does not wrap around at the limits of its C type", lv.v.cname, lv.v.typ)
		}
		old := p.rmwAdd(lv, v, rmwOrder(orderIdx(2)), pos)
		if strings.HasSuffix(base, "_fetch") && !strings.Contains(base, "fetch_") {
			return &cs.BinaryExpr{X: old, OpPos: pos, Op: cs.ADD, Y: paren(v)}
		}
		return old
	case "atomic_flag_test_and_set":
		lv := p.addr(args[0], pos)
		o := rmwOrder(orderIdx(1))
		old := p.tmp("old", pos)
		p.rmwOrd(lv, o, pos, func(x cs.Expr) []cs.Stmt {
			return []cs.Stmt{synAssign(ident(old, pos), x, pos), synAssign(x, lit(1, pos), pos)}
		})
		return ident(old, pos)
	case "atomic_flag_clear":
		lv := p.addr(args[0], pos)
		var arg *orderSpan
		if explicit {
			arg = p.t.orderArgAt(name, pos, 1, false)
		}
		p.storeAt(lv, lit(0, pos), orderArg(1), pos, arg)
		return nil
	case "atomic_thread_fence", "__atomic_thread_fence":
		nargs(name, args, 1, pos)
		o := p.order(args[0], pos)
		p.fence(o, pos)
		return nil
	case "__sync_synchronize":
		p.fence(orderSeqCst, pos)
		return nil
	case "atomic_signal_fence", "__atomic_signal_fence":
		return nil
	case "atomic_is_lock_free", "__atomic_is_lock_free", "__atomic_always_lock_free":
		return lit(1, pos)
	}
	refuse(pos, "%s", name)
	return nil
}

// cas is one locked compare-and-swap step on lv of memory order order:
// it sets the new locals old to lv's value and ok to 1 when that was
// expected (and then writes desired), else 0. expected and desired are
// computed before the step.
func (p *proc) cas(lv lvalue, expected, desired cs.Expr, order int, pos cs.Pos) (old, ok string) {
	old, ok = p.tmp("old", pos), p.tmp("ok", pos)
	p.rmwOrd(lv, order, pos, func(x cs.Expr) []cs.Stmt {
		return []cs.Stmt{
			synAssign(ident(old, pos), x, pos),
			&cs.IfStmt{If: pos, Cond: eq(ident(old, pos), expected),
				Then: synBlock([]cs.Stmt{synAssign(x, desired, pos), synAssign(ident(ok, pos), lit(1, pos), pos)}, pos),
				Else: synBlock([]cs.Stmt{synAssign(ident(ok, pos), lit(0, pos), pos)}, pos)},
		}
	})
	return old, ok
}

// fence translates a fence of memory order o: seq_cst is "fence;",
// release and acq_rel "fence store;" (nothing under TSO), the others
// nothing. Under a weak target it is the barrier the fence compiles to
// (Target.fenceKind).
func (p *proc) fence(o int, pos cs.Pos) {
	if p.t.target.weak() {
		p.t.noteFence(pos, o)
		k, ok := p.t.target.fenceKind(o)
		if !ok {
			return
		}
		if p.atomic > 0 {
			refuse(pos, "a fence inside an atomic block")
		}
		if p.isMain {
			p.observed = true
		}
		p.emit(synFence(k, pos))
		return
	}
	if o == orderSeqCst || o == orderRelease || o == orderAcqRel {
		if p.atomic > 0 {
			refuse(pos, "a fence inside an atomic block")
		}
		if p.isMain {
			p.observed = true
		}
	}
	switch o {
	case orderSeqCst:
		p.emit(&cs.FenceStmt{Fence: pos, Semi: pos - 1})
	case orderRelease, orderAcqRel:
		p.emit(&cs.FenceStmt{Fence: pos, Kind: cs.StoreFence, StorePos: pos, Semi: pos - 1})
	}
}
