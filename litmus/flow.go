package litmus

import (
	"fmt"

	"fencer/cs"
)

// This file has the static analyses of a thread of the weak dialects that
// decide whether fencer's statements say exactly what herd says: the
// control-flow graph of the rows, the registers each instruction reads and
// writes, and a forward may-analysis over registers.

// flagsReg stands for the flags (AArch64's NZCV) in the register sets of
// the analyses.
const flagsReg = "#flags"

// regSet is a set of registers (and flagsReg).
type regSet map[string]bool

func (s regSet) clone() regSet {
	c := make(regSet, len(s))
	for k := range s {
		c[k] = true
	}
	return c
}

func (s regSet) any(regs []string) bool {
	for _, r := range regs {
		if s[r] {
			return true
		}
	}
	return false
}

// srcRegs lists the registers whose values instruction in computes with
// (its value operands and flags), not the registers of its address.
func (in *winsn) srcRegs() []string {
	var out []string
	add := func(o wopnd) {
		if o.kind == opReg && !isZeroReg(o.reg) {
			out = append(out, o.reg)
		}
	}
	switch in.kind {
	case wMove:
		add(in.a)
	case wALU, wAddr, wCmp:
		add(in.a)
		add(in.b)
	case wCSel:
		add(in.a)
		add(in.b)
		out = append(out, flagsReg)
	case wBranch:
		if in.flags {
			out = append(out, flagsReg)
		} else {
			add(in.a)
			add(in.b)
		}
	case wStore, wStoreEx, wRMW:
		add(in.a)
	case wCAS:
		add(in.a)
		add(in.b)
	}
	return out
}

// addrRegs lists the registers of the address of an access (base and
// index).
func (in *winsn) addrRegs() []string {
	if !in.isAccess() {
		return nil
	}
	out := []string{in.mem.base}
	if in.mem.index != "" && !isZeroReg(in.mem.index) {
		out = append(out, in.mem.index)
	}
	return out
}

// setsFlags reports whether in writes the flags (CMP, ADDS, SUBS).
func (in *winsn) setsFlags() bool {
	return in.kind == wCmp || in.kind == wALU && in.flags
}

// isWrite reports whether in may write memory.
func (in *winsn) isWrite() bool {
	switch in.kind {
	case wStore, wStoreEx, wRMW, wCAS:
		return true
	}
	return false
}

// isRead reports whether in reads memory.
func (in *winsn) isRead() bool {
	switch in.kind {
	case wLoad, wLoadEx, wRMW, wCAS:
		return true
	}
	return false
}

// labelRow returns the row of thread th that defines label name, or -1.
func (b *builder) labelRow(th int, name string) int {
	for r, in := range b.t.w[th] {
		if in.label != nil && in.label.Text == name {
			return r
		}
	}
	return -1
}

// succs lists the rows that may run right after row r of thread th (len
// of the thread: the end).
func (b *builder) succs(th, r int) []int {
	in := &b.t.w[th][r]
	var out []int
	if in.kind != wJump {
		out = append(out, r+1)
	}
	if in.kind == wJump || in.kind == wBranch {
		if l := b.labelRow(th, in.target.Text); l >= 0 {
			out = append(out, l)
		}
	}
	return out
}

// after reports, for each row of thread th, whether it may run after row
// r (on some path that runs r, later).
func (b *builder) after(th, r int) []bool {
	n := len(b.t.w[th])
	seen := make([]bool, n)
	work := b.succs(th, r)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x >= n || seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, b.succs(th, x)...)
	}
	return seen
}

// mayFlow is a forward may-analysis of thread th from row from (its state
// before row from is init): step gives the state after an instruction
// from the state before it; states meet by union. It returns the state
// before each row (nil: not reached from from).
func (b *builder) mayFlow(th, from int, init regSet, step func(in *winsn, s regSet) regSet) []regSet {
	n := len(b.t.w[th])
	before := make([]regSet, n)
	if from >= n {
		return before
	}
	before[from] = init.clone()
	work := []int{from}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		out := step(&b.t.w[th][r], before[r].clone())
		for _, x := range b.succs(th, r) {
			if x >= n {
				continue
			}
			grew := before[x] == nil
			if grew {
				before[x] = regSet{}
			}
			for k := range out {
				if !before[x][k] {
					before[x][k] = true
					grew = true
				}
			}
			if grew {
				work = append(work, x)
			}
		}
	}
	return before
}

// derive is the step of the analyses that follow values through
// registers: an instruction that computes a register (or the flags) from
// registers of s puts it in s, one that computes it otherwise takes it out.
// A load's register is taken out (its value is the memory's), unless gen
// says to put it in; a CAS keeps its compare register as it is (herd may
// leave it its old value).
func derive(in *winsn, s regSet, gen func(in *winsn) bool) regSet {
	src := s.any(in.srcRegs())
	set := func(r string, on bool) {
		if r == "" || isZeroReg(r) {
			return
		}
		if on {
			s[r] = true
		} else {
			delete(s, r)
		}
	}
	switch in.kind {
	case wMove, wALU, wAddr, wCSel:
		if in.dst.kind == opReg {
			set(in.dst.reg, src || gen(in))
		}
		if in.setsFlags() {
			set(flagsReg, src || gen(in))
		}
	case wCmp:
		set(flagsReg, src || gen(in))
	case wLoad, wLoadEx, wRMW, wStoreEx:
		if in.dst.kind == opReg {
			set(in.dst.reg, gen(in))
		}
	case wCAS:
		if in.a.kind == opReg && gen(in) {
			set(in.a.reg, true)
		}
	}
	return s
}

// readTaint returns, before each row of thread th, the registers (and
// flags) whose value may depend on a value read from memory.
func (b *builder) readTaint(th int) []regSet {
	return b.mayFlow(th, 0, regSet{}, func(in *winsn, s regSet) regSet {
		return derive(in, s, func(in *winsn) bool { return in.isRead() || in.kind == wStoreEx })
	})
}

// checkCSel decides how each conditional select of thread th is read, or
// refuses it. herd (AArch64Sem.ml, I_CSEL) runs a CSEL as a branch on the
// flags that is no control dependency: the selected register's value goes
// to the destination (a data dependency on that register only), and the
// flags reach it by iico_ctrl, which aarch64.cat follows only in its
// "pick" dependencies: they order the reads the flags depend on before the
// writes that depend on the destination (by value or address), the writes
// after a branch on it, and the writes after an access whose address
// depends on it ([Exp]; pick-dep; [W], pick-addr-dep; [Exp & M]; po; [W]),
// and never before a read. fencer reads it as if (flags) dst = a; else
// dst = b;, which gives the data dependency exactly and makes the flags'
// reads a control dependency of every write after it. That is herd's
// order when
//
//   - the flags depend on no read (no control dependency at all), or
//   - every write that may follow is one of those the pick dependencies
//     order (on a path with no label after the CSEL: a label, where other
//     paths join, is refused if a write follows), which includes the case
//     of no write after it.
//
// Else, when both operands are the register the flags were computed from
// (LB+CSEL4: CMP W0,#0; CSEL W0,W0,W0,EQ), the destination depends on the
// flags' reads by value already and the CSEL is a move. Anything else is
// refused.
func (b *builder) checkCSel(th int) {
	ins := b.t.w[th]
	var taint []regSet
	for r := range ins {
		in := &ins[r]
		if in.kind != wCSel {
			continue
		}
		if taint == nil {
			taint = b.readTaint(th)
		}
		if taint[r] == nil || !taint[r][flagsReg] || b.pickOrdersWrites(th, r) {
			continue
		}
		if b.cselMove(th, r, taint) {
			in.move = true
			continue
		}
		panic(errAt(in.mn.Pos, "%s on flags that depend on a read, with a write after it that does not depend on its result, is not read: herd orders that read before the writes that depend on the result only (aarch64.cat's pick dependencies), which fencer cannot say", in.mn.Text))
	}
}

// pickOrdersWrites reports whether every write that may run after the CSEL
// at row r of thread th is ordered after the reads its flags depend on by
// herd's pick dependencies through its destination (checkCSel).
func (b *builder) pickOrdersWrites(th, r int) bool {
	ins := b.t.w[th]
	reach := b.after(th, r)
	anyWrite := false
	for i, ok := range reach {
		if !ok {
			continue
		}
		in := &ins[i]
		anyWrite = anyWrite || in.isWrite()
		if l := b.jumpTarget(th, in); l >= 0 && l <= r {
			return !b.anyWriteIn(th, reach) // a loop back over the CSEL
		}
	}
	if !anyWrite {
		return true
	}
	s := regSet{}
	if ins[r].dst.kind == opReg && !isZeroReg(ins[r].dst.reg) {
		s[ins[r].dst.reg] = true
	}
	all := false // every later write is ordered
	for i := r + 1; i < len(ins); i++ {
		if !reach[i] {
			continue
		}
		in := &ins[i]
		if in.label != nil {
			s, all = regSet{}, false
		}
		addr := s.any(in.addrRegs())
		if in.isWrite() && !all && !addr && !s.any(in.srcRegs()) {
			return false
		}
		if addr || in.kind == wBranch && s.any(in.srcRegs()) {
			all = true
		}
		s = derive(in, s, func(*winsn) bool { return false })
	}
	return true
}

// jumpTarget is the row a jump or branch goes to, or -1.
func (b *builder) jumpTarget(th int, in *winsn) int {
	if in.kind != wJump && in.kind != wBranch {
		return -1
	}
	return b.labelRow(th, in.target.Text)
}

func (b *builder) anyWriteIn(th int, rows []bool) bool {
	for i, ok := range rows {
		if ok && b.t.w[th][i].isWrite() {
			return true
		}
	}
	return false
}

// cselMove reports whether the CSEL at row r of thread th selects between
// one register whose value already depends on every read its flags depend
// on: CSEL Wd,Wn,Wn with flags of a CMP of Wn (not written since) and of
// values that depend on no read.
func (b *builder) cselMove(th, r int, taint []regSet) bool {
	ins := b.t.w[th]
	in := &ins[r]
	if in.inc || in.a.reg != in.b.reg || isZeroReg(in.a.reg) {
		return false
	}
	for c := r - 1; c >= 0; c-- {
		x := &ins[c]
		if x.kind == wCmp {
			for _, o := range []wopnd{x.a, x.b} {
				if o.kind == opReg && !isZeroReg(o.reg) && o.reg != in.a.reg && taint[c][o.reg] {
					return false
				}
			}
			return true
		}
		for _, w := range x.writes() {
			if w == in.a.reg {
				return false
			}
		}
		if x.setsFlags() || x.label != nil {
			return false
		}
	}
	return false
}

// checkPost refuses a post-indexed access of thread th ([Xn],#imm) whose
// base register is read after it: the write-back changes the address it
// holds, and fencer's addresses are static. Unread, the write-back is
// nothing herd can observe (an address register is in no condition), and
// the access is the one at [Xn].
func (b *builder) checkPost(th int) {
	ins := b.t.w[th]
	for r := range ins {
		in := &ins[r]
		if in.post == nil {
			continue
		}
		base := in.mem.base
		if in.dst.kind == opReg && in.dst.reg == base {
			panic(errAt(in.dst.tok.Pos, "%s loads into its post-indexed base register: not read", in.mn.Text))
		}
		for i, ok := range b.after(th, r) {
			x := &ins[i]
			if !ok {
				continue
			}
			for _, reg := range append(x.addrRegs(), x.srcRegs()...) {
				if reg == base {
					panic(errAt(in.post.Pos, "a post-indexed %s whose base register %s is read after it (line %d) is not read: the write-back changes the address, and fencer's addresses are static", in.mn.Text, in.mem.bTok.Text, b.line(x.mn.Pos)))
				}
			}
		}
	}
}

// checkCAS reads the compare register Rs of each CAS of thread th, and
// refuses what fencer would order otherwise than herd.
//
// herd (AArch64Sem.ml, cas; event.ml, aarch64_cas_ok and aarch64_cas_no)
// writes Rs on both paths: with the value read when the CAS fails, and
// when it swaps either with the value read or with Rs's own value (two
// executions), then with the read a "pick" dependency of Rs (iico_ctrl).
// A write that depends on Rs is ordered after the CAS's read either way,
// so fencer gives Rs the value read; when a read's address depends on Rs,
// the swap also keeps Rs (rsBoth), which is exact as long as no write may
// follow the CAS (the pick dependency would order it after the CAS's
// read): else it is refused.
//
// The CAS's write depends on its read and on Rs in herd by a pick
// dependency too (its test, iico_ctrl to the write): it orders them before
// that write and, through the reads that read it (lrs), before writes
// only. fencer's engine takes the write's test as a data dependency,
// which also orders them before the next read of its location (Arm's
// data; lrs) and what that read is ordered before. That differs from herd
// only when something may be ordered before those sources otherwise than
// before everything after them (Rs depends on a read; another thread
// writes the location, or an access to it comes before the CAS, unless the
// CAS is an acquire) and such a read is ordered before another read (an
// address, a write then a read, an atomic step then an acquire, a DMB LD
// after a CAS that returns nothing; being an acquire when Rs depends on a
// read and the CAS's write is no release): refused. Barriers and raises
// that fencer insert adds do not change the answer, or are not offered
// (Reader.CanRaise reads the raised test back).
func (b *builder) checkCAS(th int) {
	ins := b.t.w[th]
	var taint []regSet
	for c := range ins {
		in := &ins[c]
		if in.kind != wCAS {
			continue
		}
		if taint == nil {
			taint = b.readTaint(th)
		}
		reach := b.after(th, c)
		if rs := in.a.reg; !isZeroReg(rs) && c+1 < len(ins) {
			derived := b.mayFlow(th, c+1, regSet{rs: true}, func(x *winsn, s regSet) regSet {
				return derive(x, s, func(*winsn) bool { return false })
			})
			for i, ok := range reach {
				x := &ins[i]
				if !ok || derived[i] == nil || x.kind != wLoad && x.kind != wLoadEx || !derived[i].any(x.addrRegs()) {
					continue
				}
				if b.anyWriteIn(th, reach) {
					panic(errAt(x.mem.tok.Pos, "a read whose address depends on the compare register of the CAS at line %d, with a write after that CAS, is not read: herd lets Rs keep its value (the CAS's read then a pick dependency of it, which orders later writes) or take the value read, which fencer cannot say together", b.line(in.mn.Pos)))
				}
				in.rsBoth = true
			}
		}
		rsRead := taint[c] != nil && taint[c][in.a.reg]
		if !rsRead && (in.ann&cs.Acquire != 0 || !b.orderedBefore(th, c)) {
			continue
		}
		// An acquire read after the CAS is ordered after its read in herd
		// too (rmw; lrs; [A|Q]), and after Rs's reads when the CAS's
		// write is a release ([L]; po; [A]).
		acqHarm := rsRead && in.ann&cs.Release == 0
		loc, known := b.locOf(th, in)
		for i, ok := range reach {
			x := &ins[i]
			if !ok || !x.isRead() {
				continue
			}
			if l, k := b.locOf(th, x); known && k && l != loc {
				continue
			}
			if why := b.readBeforeRead(th, i, in.ann&cs.NoRet != 0, acqHarm); why != "" {
				panic(errAt(x.mn.Pos, "%s reads the location of the CAS at line %d and %s: not read (herd orders the CAS's read and compare register before its write by a pick dependency, which orders later writes only; fencer's engine would order this read after them too)", x.mn.Text, b.line(in.mn.Pos), why))
			}
		}
	}
}

// orderedBefore reports whether something may be ordered before the read
// of the CAS at row c of thread th otherwise than before everything after
// it: another thread writes its location (rfe), or an access to its
// location comes before it in the thread ((addr|data); lrs). A barrier or
// an acquire before the CAS orders what precedes it before everything
// after it anyway (so fencer insert, which adds them, leaves the answer
// of this check as it is); an acquire CAS orders its read before
// everything after it (checkCAS does not ask).
func (b *builder) orderedBefore(th, c int) bool {
	in := &b.t.w[th][c]
	loc, known := b.locOf(th, in)
	same := func(t int, x *winsn) bool {
		l, k := b.locOf(t, x)
		return !known || !k || l == loc
	}
	for t := range b.t.w {
		for i := range b.t.w[t] {
			x := &b.t.w[t][i]
			if t != th {
				if x.isWrite() && same(t, x) {
					return true
				}
				continue
			}
			if x.isAccess() && same(t, x) && b.after(th, i)[c] {
				return true
			}
		}
	}
	return false
}

// readBeforeRead says how the read at row r of thread th may be ordered
// before another read, or "" (noret: after a CAS that returns nothing, a
// DMB LD after the read counts; acq: so does the read being an acquire).
func (b *builder) readBeforeRead(th, r int, noret, acq bool) string {
	ins := b.t.w[th]
	in := &ins[r]
	switch {
	case acq && in.ann&(cs.Acquire|cs.AcquirePC) != 0:
		return "is an acquire"
	case r+1 >= len(ins):
		return ""
	}
	dst := in.dst
	if in.kind == wCAS {
		dst = in.a
	}
	if in.kind != wLoad {
		// an atomic step: its read before an acquire read of its write
		// (rmw; lrs; [A|Q])
		loc, known := b.locOf(th, in)
		for j, ok := range b.after(th, r) {
			x := &ins[j]
			if !ok || !x.isRead() || x.ann&(cs.Acquire|cs.AcquirePC) == 0 {
				continue
			}
			if l, k := b.locOf(th, x); !known || !k || l == loc {
				return fmt.Sprintf("is an atomic step with an acquire read of its location after it (line %d)", b.line(x.mn.Pos))
			}
		}
	}
	init := regSet{}
	if dst.kind == opReg && !isZeroReg(dst.reg) {
		init[dst.reg] = true
	}
	derived := b.mayFlow(th, r+1, init, func(x *winsn, s regSet) regSet {
		return derive(x, s, func(*winsn) bool { return false })
	})
	for j, s := range derived {
		if s == nil {
			continue
		}
		x := &ins[j]
		switch {
		case x.isRead() && s.any(x.addrRegs()):
			return fmt.Sprintf("a read's address depends on it (line %d)", b.line(x.mn.Pos))
		case x.isWrite() && (s.any(x.addrRegs()) || s.any(x.srcRegs())) && b.anyReadIn(th, b.after(th, j)):
			return fmt.Sprintf("a write depends on it (line %d) with a read after that write", b.line(x.mn.Pos))
		case noret && x.kind == wFence && x.fence != cs.FullFence && x.fence.Orders()&(cs.LoadLoad|cs.LoadStore) != 0:
			return fmt.Sprintf("a load barrier follows it (line %d)", b.line(x.mn.Pos))
		}
	}
	return ""
}

func (b *builder) anyReadIn(th int, rows []bool) bool {
	for i, ok := range rows {
		if ok && b.t.w[th][i].isRead() {
			return true
		}
	}
	return false
}

// locOf names the location an access of thread th reads or writes, when
// its address is known statically.
func (b *builder) locOf(th int, in *winsn) (string, bool) {
	m := in.mem
	x, off := b.addrOf(th, m.base, m.bTok, in.row, 0)
	off += m.disp
	if m.index != "" {
		v, ok := b.staticValue(th, m.index, in.row, 0)
		if !ok {
			return "", false
		}
		off += v << m.shift
	}
	return fmt.Sprintf("%s+%d", x.Text, off), true
}
