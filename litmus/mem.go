package litmus

import (
	"fmt"

	"fencer/cs"
)

// This file resolves memory operands to shared variables. A location
// named in the operand ([x], (x)) is that variable. A register operand
// ([EBX], (%rax), 8(%rax,%rbx,8)) is read only when its address is known
// statically: the base register holds the address of a location from the
// initial state (0:EBX=x) and the thread never writes it, and the index
// register, if any, holds an integer of the initial state and is never
// written either. The address is then base + disp + index*scale, which
// must be a location itself (offset 0) or an element of an array
// (int64_t t[2]={1,-1}; the offset a multiple of the element's size,
// inside the array). Anything else is refused at its position.

// typeSizes are the bytes of the C types herd's initial states use.
var typeSizes = map[string]int64{
	"char": 1, "int8_t": 1, "uint8_t": 1,
	"short": 2, "int16_t": 2, "uint16_t": 2,
	"int": 4, "int32_t": 4, "uint32_t": 4, "unsigned": 4,
	"long": 8, "int64_t": 8, "uint64_t": 8, "intptr_t": 8, "uintptr_t": 8,
}

// typeSize returns the size of type typ, declared for name.
func typeSize(typ string, name token) int64 {
	n, ok := typeSizes[typ]
	if !ok {
		panic(errAt(name.Pos-len(typ)-1, "type %s of %s is not read (int, char, short, long, [u]int8_t to [u]int64_t)", typ, name.Text))
	}
	return n
}

// declareArray makes the elements of array e shared variables t_0, t_1, ...
func (b *builder) declareArray(e initEntry) {
	if _, dup := b.arrays[e.name.Text]; dup {
		panic(errAt(e.name.Pos, "array %s declared twice", e.name.Text))
	}
	a := &array{name: e.name, size: typeSize(e.typ, e.name)}
	for i := 0; i < e.n; i++ {
		name := fresh(fmt.Sprintf("%s_%d", e.name.Text, i), b.taken)
		sp := &cs.VarSpec{Name: ident(name, e.name.Pos)}
		if i < len(e.values) && e.values[i] != 0 {
			sp.Value = intLit(e.values[i], e.name.Pos)
		}
		b.shared = append(b.shared, sp)
		a.elems = append(a.elems, name)
	}
	b.arrays[e.name.Text] = a
}

// memOperand returns the shared variable memory operand o of thread th denotes.
func (b *builder) memOperand(th int, o operand) string {
	if o.kind != opMem {
		panic(errAt(o.tok.Pos, "expected a memory operand"))
	}
	if !o.hasRegMemory {
		return b.at(*o.sym, o.disp, o.tok)
	}
	base, ok := b.addr[th][o.base]
	if !ok {
		panic(errAt(o.bTok.Pos, "%s does not hold an address known statically (give it one in the initial state: %d:%s=x)", o.bTok.Text, th, o.base))
	}
	off := o.disp
	if o.index != "" {
		if _, isAddr := b.addr[th][o.index]; isAddr {
			panic(errAt(o.iTok.Pos, "index register %s holds an address", o.iTok.Text))
		}
		if b.written[th][o.index] {
			panic(errAt(o.iTok.Pos, "index register %s is written by P%d: only addresses known statically are read", o.iTok.Text, th))
		}
		off += b.inits[fmt.Sprintf("%d:%s", th, o.index)] * o.scale
	}
	return b.at(base, off, o.tok)
}

// at returns the shared variable at byte offset off of location x.
func (b *builder) at(x token, off int64, where token) string {
	if a, ok := b.arrays[x.Text]; ok {
		if off%a.size != 0 || off < 0 || off/a.size >= int64(len(a.elems)) {
			panic(errAt(where.Pos, "offset %d is not an element of %s (%d elements of %d bytes)", off, x.Text, len(a.elems), a.size))
		}
		return a.elems[off/a.size]
	}
	if off != 0 {
		panic(errAt(where.Pos, "offset %d from %s: %s is not an array", off, x.Text, x.Text))
	}
	if _, _, isReg := regName(b.t.arch, x.Text); isReg && b.t.arch == intel {
		panic(errAt(x.Pos, "internal error: register %s taken as a location", x.Text))
	}
	return b.location(x)
}
