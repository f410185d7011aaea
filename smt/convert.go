package smt

/*
#include "z3shim.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"fencer/expr"
)

// The conversion expr.Expr → Z3 compiles the nodes that are not cached yet
// into a stack program (shim_instr) that shim_build runs in one crossing:
// cached nodes are pushed as SHIM_AST, new ones are built from their
// operands and saved into a slot (SHIM_SAVE) that then goes into the cache;
// a node met twice in one program is reloaded from its slot (SHIM_LOAD).
// Operators 0..16 are expr's own opcodes.

// compiler holds the buffers of one conversion, reused across conversions.
type compiler struct {
	code   []C.shim_instr
	names  []byte // NUL-terminated names of new variables
	owners []owner
	slots  []C.Z3_ast
	roots  []C.Z3_ast

	pendApps map[*expr.App]int32
	pendVars map[string]int32
	pendInts map[int64]int32
}

// owner is the node whose term goes into a slot.
type owner struct {
	app  *expr.App
	name string
	v    int64
	kind uint8 // ownApp, ownVar or ownInt
}

const (
	ownApp = iota
	ownVar
	ownInt
)

// terms converts fs to Z3 terms. The result is valid until the next call
// (the terms themselves live in the cache until it is cleared, which
// happens only at the start of a conversion).
func (c *Context) terms(fs ...expr.Expr) ([]C.Z3_ast, error) {
	if c.s == nil {
		return nil, ErrClosed
	}
	p := &c.comp
	p.roots = p.roots[:0]
	// Fast path: every root is cached already.
	for _, f := range fs {
		a, ok := c.cached(f)
		if !ok {
			break
		}
		p.roots = append(p.roots, a)
	}
	if len(p.roots) == len(fs) {
		return p.roots, nil
	}
	if c.cacheSize() > CacheLimit {
		c.ClearCache()
	}
	p.reset()
	for i, f := range fs {
		if err := c.emit(f); err != nil {
			p.forget()
			return nil, err
		}
		p.instr(C.SHIM_ROOT, 0, int64(i))
	}
	if cap(p.slots) < len(p.owners) {
		p.slots = make([]C.Z3_ast, len(p.owners))
	}
	p.slots = p.slots[:len(p.owners)]
	clear(p.slots)
	if cap(p.roots) < len(fs) {
		p.roots = make([]C.Z3_ast, len(fs))
	}
	p.roots = p.roots[:len(fs)]
	p.names = append(p.names, 0) // never empty
	rc := C.shim_build(c.s, &p.code[0], C.int32_t(len(p.code)),
		(*C.char)(unsafe.Pointer(&p.names[0])), first(p.slots), first(p.roots))
	runtime.KeepAlive(c)
	if rc != 0 {
		p.forget()
		return nil, c.err(rc)
	}
	for i, o := range p.owners {
		switch o.kind {
		case ownApp:
			c.apps[o.app] = p.slots[i]
		case ownVar:
			c.vars[o.name] = p.slots[i]
		case ownInt:
			c.ints[o.v] = p.slots[i]
		}
	}
	p.forget()
	return p.roots, nil
}

// cached returns the term of f if it needs no conversion.
func (c *Context) cached(f expr.Expr) (C.Z3_ast, bool) {
	switch x := f.(type) {
	case *expr.App:
		a, ok := c.apps[x]
		return a, ok
	case expr.Var:
		a, ok := c.vars[x.Name]
		return a, ok
	case expr.Int:
		a, ok := c.ints[x.V]
		return a, ok
	case expr.Bool:
		if x.V {
			return c.s.tru, true
		}
		return c.s.fls, true
	}
	return nil, false
}

func (p *compiler) reset() {
	p.code = p.code[:0]
	p.names = p.names[:0]
	if p.pendApps == nil {
		p.pendApps = map[*expr.App]int32{}
		p.pendVars = map[string]int32{}
		p.pendInts = map[int64]int32{}
	}
}

// forget drops the references to the converted nodes.
func (p *compiler) forget() {
	clear(p.owners)
	p.owners = p.owners[:0]
	clear(p.pendApps)
	clear(p.pendVars)
	clear(p.pendInts)
}

func (p *compiler) instr(op C.int32_t, n int, v int64) {
	p.code = append(p.code, C.shim_instr{op: op, n: C.int32_t(n), v: C.int64_t(v)})
}

// save assigns the next slot to o and emits SHIM_SAVE.
func (p *compiler) save(o owner) int32 {
	slot := int32(len(p.owners))
	p.owners = append(p.owners, o)
	p.instr(C.SHIM_SAVE, 0, int64(slot))
	return slot
}

func (p *compiler) push(a C.Z3_ast) {
	p.instr(C.SHIM_AST, 0, int64(uintptr(unsafe.Pointer(a))))
}

// arity gives the number of arguments of each operator; -1 means one or more.
var arity = [...]int{
	expr.OpAdd: -1, expr.OpSub: -1, expr.OpMul: -1, expr.OpDiv: 2, expr.OpMod: 2,
	expr.OpNeg: 1, expr.OpIte: 3, expr.OpEq: 2, expr.OpNe: 2, expr.OpLt: 2,
	expr.OpLe: 2, expr.OpGt: 2, expr.OpGe: 2, expr.OpAnd: -1, expr.OpOr: -1,
	expr.OpNot: 1, expr.OpImplies: 2,
}

func (c *Context) emit(e expr.Expr) error {
	p := &c.comp
	if a, ok := c.cached(e); ok {
		p.push(a)
		return nil
	}
	switch x := e.(type) {
	case expr.Int:
		if slot, ok := p.pendInts[x.V]; ok {
			p.instr(C.SHIM_LOAD, 0, int64(slot))
			return nil
		}
		p.instr(C.SHIM_INT, 0, x.V)
		p.pendInts[x.V] = p.save(owner{kind: ownInt, v: x.V})
		return nil
	case expr.Var:
		if slot, ok := p.pendVars[x.Name]; ok {
			p.instr(C.SHIM_LOAD, 0, int64(slot))
			return nil
		}
		if x.Name == "" || strings.IndexByte(x.Name, 0) >= 0 {
			return fmt.Errorf("smt: bad variable name %q", x.Name)
		}
		p.instr(C.SHIM_VAR, 0, int64(len(p.names)))
		p.names = append(p.names, x.Name...)
		p.names = append(p.names, 0)
		p.pendVars[x.Name] = p.save(owner{kind: ownVar, name: x.Name})
		return nil
	case *expr.App:
		if x == nil {
			return fmt.Errorf("smt: nil expression")
		}
		if slot, ok := p.pendApps[x]; ok {
			p.instr(C.SHIM_LOAD, 0, int64(slot))
			return nil
		}
		if int(x.Op) >= len(arity) {
			return fmt.Errorf("smt: unknown operator %v", x.Op)
		}
		n := len(x.Args)
		if want := arity[x.Op]; want >= 0 && n != want || want < 0 && n == 0 {
			if n == 0 && (x.Op == expr.OpAnd || x.Op == expr.OpOr) {
				return c.emit(expr.Bool{V: x.Op == expr.OpAnd})
			}
			return fmt.Errorf("smt: %v with %d arguments", x.Op, n)
		}
		if x.Op == expr.OpDiv || x.Op == expr.OpMod {
			if d, ok := x.Args[1].(expr.Int); !ok || d.V == 0 {
				return fmt.Errorf("smt: divisor of %v is not a non-zero constant", x)
			}
		}
		for _, a := range x.Args {
			if err := c.emit(a); err != nil {
				return err
			}
		}
		p.instr(C.int32_t(x.Op), n, 0)
		p.pendApps[x] = p.save(owner{kind: ownApp, app: x})
		return nil
	case nil:
		return fmt.Errorf("smt: nil expression")
	}
	return fmt.Errorf("smt: unknown expression %T", e)
}

// roundTrip converts e to Z3 and back without simplification (for tests).
func (c *Context) roundTrip(e expr.Expr) (expr.Expr, error) {
	ts, err := c.terms(e)
	if err != nil {
		return nil, err
	}
	return c.toExpr(ts[0])
}

// opcodes returns the shim's opcodes of expr's operators (for tests).
func opcodes() map[expr.Op]int {
	return map[expr.Op]int{
		expr.OpAdd: C.SHIM_ADD, expr.OpSub: C.SHIM_SUB, expr.OpMul: C.SHIM_MUL,
		expr.OpDiv: C.SHIM_DIV, expr.OpMod: C.SHIM_MOD, expr.OpNeg: C.SHIM_NEG,
		expr.OpIte: C.SHIM_ITE, expr.OpEq: C.SHIM_EQ, expr.OpNe: C.SHIM_NE,
		expr.OpLt: C.SHIM_LT, expr.OpLe: C.SHIM_LE, expr.OpGt: C.SHIM_GT,
		expr.OpGe: C.SHIM_GE, expr.OpAnd: C.SHIM_AND, expr.OpOr: C.SHIM_OR,
		expr.OpNot: C.SHIM_NOT, expr.OpImplies: C.SHIM_IMPLIES,
	}
}
