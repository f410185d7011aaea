package cegar

import (
	"encoding/binary"
	"fmt"

	"fencer/cs"
	"fencer/domains"
)

// The profile of a control state from its components. What a profile
// holds (ctlProfile) is, position by position, whether the position is
// explicit, whether it matters (Zero) and which dynamic variable it holds,
// each decided by one process's part of the control state, its location,
// buffer and tail set (domains.Layout.PosProc; a shared variable's
// position is the same everywhere); and, predicate by predicate, whether
// it is relevant, the conjunction over the processes of conditions each on
// one process's part (kabs.Relevance.AppendProcMask). So the profile is a
// function of the vector of the components' profile parts: a part is what
// one component decides of all that, interned per process (compPart), and
// two components with the same part, whatever their other differences
// (location, buffer contents), make the same profile with the same other
// components. A new control node's profile is found by the vector of its
// components' parts (profByParts), without decoding the control state;
// only a vector not seen before is drafted (draft), once. Its badness
// comes from its components' locations.

// compPart returns the location, the profile part id and the runs of
// the positions of p that do not matter (ctlComp.zrun) of process p's
// component with key k (appendProcKey). The caller holds the lock or is
// alone.
func (x *explorer) compPart(p int, k []byte) (cs.Loc, uint32, domains.Zeros) {
	c := &x.partCtl
	x.shapeCtl(c)
	for q := range c.PC {
		c.PC[q] = 0
		if c.B != nil {
			c.B[q], c.S[q] = c.B[q][:0], c.S[q][:0]
		}
		if c.E != nil {
			c.E[q] = c.E[q][:0]
		}
	}
	x.decodeProc(c, p, k)
	b := &x.partBuf
	b.xv = x.lay.AppendExplicit(b.xv[:0], c)
	b.zero = x.lay.AppendZero(b.zero[:0], c)
	b.dyn = x.lay.AppendDynPositions(b.dyn[:0], c)
	b.rel = x.rel.AppendProcMask(b.rel[:0], c, p)
	key := b.pk[:0]
	zi := 0
	for _, i := range x.posOf[p] {
		for zi < len(b.zero) && b.zero[zi] < i {
			zi++
		}
		bits := byte(0)
		if b.xv[i] {
			bits |= 1
		}
		if zi < len(b.zero) && b.zero[zi] == i {
			bits |= 2
		}
		key = append(key, bits)
	}
	for _, r := range b.rel {
		if r {
			key = append(key, 1)
		} else {
			key = append(key, 0)
		}
	}
	for _, d := range b.dyn {
		if x.lay.PosProc(d.Pos) == p {
			key = binary.AppendUvarint(key, uint64(d.Pos))
			key = binary.AppendUvarint(key, uint64(d.Var))
		}
	}
	b.pk = key
	id, ok := x.parts[p][string(key)]
	if !ok {
		id = uint32(len(x.parts[p]))
		x.parts[p][string(key)] = id
	}
	return c.PC[p], id, x.lay.OwnZeros(domains.ZerosOf(b.zero), p)
}

// appendPartsKey appends to dst the profile parts key of the control state
// with key kb (its components' part ids) and says whether it is bad (from
// its components' locations, in *pcs). It needs no lock: the components of
// a key are published before it.
func (x *explorer) appendPartsKey(dst []byte, pcs *[]cs.Loc, kb []byte) ([]byte, bool) {
	*pcs = (*pcs)[:0]
	for p := range x.abs.Sys.Procs {
		id, k := binary.Uvarint(kb)
		kb = kb[k:]
		c := x.compByID(p, uint32(id))
		dst = binary.AppendUvarint(dst, uint64(c.part))
		*pcs = append(*pcs, c.pc)
	}
	return dst, x.abs.Sys.IsBad(*pcs)
}

// checkProfiles makes profileByParts draft every control state and compare
// (tests set it: TestProfileByParts).
var checkProfiles = false

// profileByParts returns the profile of the control state with key kb,
// profile parts key pk and badness bad: found by pk, or drafted once for
// it. The caller holds the lock.
func (x *explorer) profileByParts(w *worker, kb, pk []byte, bad bool) (uint32, error) {
	pr, ok := x.profByParts[string(pk)]
	if ok && !checkProfiles {
		return pr, nil
	}
	d := x.draft(x.ctlOfInto(&w.ctl.dec, kb), &w.ctl.drafts)
	w.ctl.drafts.reset()
	dpr := x.profileOf(&d)
	if d.bad != bad || ok && dpr != pr {
		return 0, fmt.Errorf("internal error: a control state's profile from its components' parts differs from its draft")
	}
	x.profByParts[string(pk)] = dpr
	return dpr, nil
}

// partsInit makes the explorer's tables of profile parts.
func (x *explorer) partsInit() {
	np := len(x.abs.Sys.Procs)
	x.parts = make([]map[string]uint32, np)
	for p := range x.parts {
		x.parts[p] = map[string]uint32{}
	}
	x.profByParts = map[string]uint32{}
	x.posOf = make([][]int, np)
	if np <= 64 {
		x.partBits = uint(min(32, 64/np))
	}
	for i := range x.lay.Len() {
		if p := x.lay.PosProc(i); p >= 0 {
			x.posOf[p] = append(x.posOf[p], i)
		}
	}
}
