package cfront

import (
	"fmt"
	"strings"

	"fencer/cs"
)

// This file holds the targets: the architectures whose mapping of C11
// atomics the reader uses (../shared/C-INPUT.md). The default one is
// x86's under TSO and SPARC's under PSO: every order is in fences and
// locked steps. The axiomatic models read C as GCC compiles it for
// AArch64 and RISC-V, and as fencer's conservative mapping for SPARC RMO:
// acquire loads and release stores are annotated accesses (Arm) or
// accesses with barriers of the kind the target's instructions order.

// Target is an architecture whose mapping of C11 atomics Reader uses.
type Target string

const (
	// TargetDefault is the store-buffer mapping (x86 under TSO, SPARC
	// under PSO; also the one of SC).
	TargetDefault Target = ""
	// TargetARM is AArch64: LDAR, STLR, DMB ISH and DMB ISHLD.
	TargetARM Target = "arm"
	// TargetRISCV is RISC-V: fence r,rw after an acquire load, fence rw,w
	// before a release store, fence rw,rw around seq_cst accesses.
	TargetRISCV Target = "riscv"
	// TargetRMO is SPARC RMO: the membar masks of the same places.
	TargetRMO Target = "rmo"
)

// Targets are the targets other than the default, by the names of their
// memory models (memmodel.ARM, RISCV, RMO).
var Targets = []Target{TargetARM, TargetRISCV, TargetRMO}

// TargetOf returns the target whose mapping C is read with under the
// memory model named model: the model's own for "arm", "riscv" and
// "rmo", the default one for every other model.
func TargetOf(model string) Target {
	for _, t := range Targets {
		if string(t) == model {
			return t
		}
	}
	return TargetDefault
}

// valid reports an unknown target as an error.
func (t Target) valid() error {
	if t == TargetDefault || t.weak() {
		return nil
	}
	return fmt.Errorf("unknown C target %q (want %s, %s or %s)", string(t), TargetARM, TargetRISCV, TargetRMO)
}

// weak reports whether t is one of the targets of the axiomatic models.
func (t Target) weak() bool { return t == TargetARM || t == TargetRISCV || t == TargetRMO }

// name is the target for messages: "AArch64 (--model arm)".
func (t Target) name() string {
	switch t {
	case TargetARM:
		return "AArch64 (--model arm)"
	case TargetRISCV:
		return "RISC-V (--model riscv)"
	case TargetRMO:
		return "SPARC RMO (--model rmo)"
	}
	return "x86 and SPARC (--model tso, pso)"
}

// barriers says which asm instructions are the barriers of t, for the
// message that refuses another.
func (t Target) barriers() string {
	switch t {
	case TargetARM:
		return "dmb ish, dmb ishld, dmb ishst"
	case TargetRISCV:
		return "fence PRED,SUCC, fence.tso"
	case TargetRMO:
		return "membar with #LoadLoad, #LoadStore, #StoreLoad, #StoreStore"
	}
	return "mfence, sfence, lfence"
}

// loadOrder is the order a load of order o has on a weak target: a plain
// (or volatile) access of an _Atomic object is seq_cst (C11 7.17.7.1);
// consume is acquire; release and acq_rel are not orders of a load, and
// GCC makes them seq_cst (with -Winvalid-memory-model). The result is
// orderRelaxed, orderAcquire or orderSeqCst (orderPlain for a plain
// access of a non-atomic object).
func loadOrder(o int, atomic bool) int {
	switch o {
	case orderPlain:
		if atomic {
			return orderSeqCst
		}
		return orderPlain
	case orderConsume, orderAcquire:
		return orderAcquire
	case orderRelease, orderAcqRel, orderSeqCst:
		return orderSeqCst
	}
	return orderRelaxed
}

// storeOrder is the order a store of order o has on a weak target, as
// loadOrder: consume, acquire and acq_rel are not orders of a store, and
// GCC makes them seq_cst. The result is orderPlain, orderRelaxed,
// orderRelease or orderSeqCst.
func storeOrder(o int, atomic bool) int {
	switch o {
	case orderPlain:
		if atomic {
			return orderSeqCst
		}
		return orderPlain
	case orderRelaxed:
		return orderRelaxed
	case orderRelease:
		return orderRelease
	}
	return orderSeqCst
}

// loadMapping is how a load of order o (loadOrder's) is read on target
// t: the barriers before the read, its annotation, the barriers after.
func (t Target) loadMapping(o int) (pre []cs.FenceKind, ann cs.Ann, post []cs.FenceKind) {
	if o != orderAcquire && o != orderSeqCst {
		return nil, 0, nil
	}
	switch t {
	case TargetARM:
		return nil, cs.Acquire, nil // LDAR (seq_cst too: RCsc after an STLR)
	case TargetRISCV:
		if o == orderSeqCst {
			pre = []cs.FenceKind{cs.FullFence} // fence rw,rw
		}
	case TargetRMO:
		if o == orderSeqCst {
			pre = []cs.FenceKind{cs.MaskFence(cs.StoreLoad)}
		}
	}
	// fence r,rw; membar #LoadLoad|#LoadStore
	return pre, 0, []cs.FenceKind{cs.LoadFence}
}

// storeMapping is how a store of order o (storeOrder's) is written on
// target t: the barriers before the write, its annotation, the barriers
// after.
func (t Target) storeMapping(o int) (pre []cs.FenceKind, ann cs.Ann, post []cs.FenceKind) {
	if o != orderRelease && o != orderSeqCst {
		return nil, 0, nil
	}
	switch t {
	case TargetARM:
		return nil, cs.Release, nil // STLR
	case TargetRISCV:
		if o == orderSeqCst {
			post = []cs.FenceKind{cs.FullFence} // fence rw,rw
		}
	case TargetRMO:
		if o == orderSeqCst {
			post = []cs.FenceKind{cs.MaskFence(cs.StoreLoad)}
		}
	}
	// fence rw,w; membar #LoadStore|#StoreStore
	return []cs.FenceKind{cs.ReleaseFence}, 0, post
}

// rmwMapping is how an atomic read-modify-write of order o is read on
// target t: the barriers before its step, the step's annotation
// (cs.AtomicStmt.Ann: 0 is acquire and release, cs.Relaxed none), the
// barriers after. AArch64's CASAL, SWPA, LDADD... and RISC-V's
// amo*.aq/.rl carry the order; SPARC RMO's locked step has the membars
// of a load and a store of the order around it.
func (t Target) rmwMapping(o int) (pre []cs.FenceKind, ann cs.Ann, post []cs.FenceKind) {
	if t != TargetRMO {
		switch o {
		case orderRelaxed:
			return nil, cs.Relaxed, nil
		case orderConsume, orderAcquire:
			return nil, cs.Acquire, nil
		case orderRelease:
			return nil, cs.Release, nil
		}
		return nil, 0, nil
	}
	lo, so := orderRelaxed, orderRelaxed
	switch o {
	case orderConsume, orderAcquire:
		lo = orderAcquire
	case orderRelease:
		so = orderRelease
	case orderAcqRel:
		lo, so = orderAcquire, orderRelease
	case orderSeqCst:
		lo, so = orderSeqCst, orderSeqCst
	}
	lpre, _, lpost := t.loadMapping(lo)
	spre, _, spost := t.storeMapping(so)
	return merged(lpre, spre), cs.Relaxed, merged(lpost, spost)
}

// merged is one barrier that orders what all of ks do, or none.
func merged(ks ...[]cs.FenceKind) []cs.FenceKind {
	var o cs.Ordering
	for _, l := range ks {
		for _, k := range l {
			o |= k.Orders()
		}
	}
	if o == 0 {
		return nil
	}
	return []cs.FenceKind{cs.MaskFence(o)}
}

// casOrder is the order of a compare-and-swap whose success order is
// succ and failure order fail, as one step: it acquires when either
// does, releases when succ does, and is seq_cst when either is.
func casOrder(succ, fail int) int {
	acq := func(o int) bool {
		return o == orderConsume || o == orderAcquire || o == orderAcqRel || o == orderSeqCst
	}
	rel := succ == orderRelease || succ == orderAcqRel || succ == orderSeqCst
	switch {
	case succ == orderSeqCst || fail == orderSeqCst:
		return orderSeqCst
	case (acq(succ) || acq(fail)) && rel:
		return orderAcqRel
	case acq(succ) || acq(fail):
		return orderAcquire
	case rel:
		return orderRelease
	}
	return orderRelaxed
}

// fenceKind is the barrier that atomic_thread_fence(o) compiles to on t;
// ok is false when it is none (relaxed).
func (t Target) fenceKind(o int) (k cs.FenceKind, ok bool) {
	switch o {
	case orderConsume, orderAcquire:
		return cs.LoadFence, true // DMB ISHLD, fence r,rw
	case orderRelease:
		if t == TargetARM {
			return cs.FullFence, true // DMB ISH
		}
		return cs.ReleaseFence, true
	case orderAcqRel:
		if t == TargetARM {
			return cs.FullFence, true
		}
		return cs.TSOFence, true // fence.tso; membar #LoadLoad|#LoadStore|#StoreStore
	case orderSeqCst:
		return cs.FullFence, true
	}
	return 0, false
}

// c11Fence is the weakest memory order of atomic_thread_fence whose
// barrier orders o on every target: acquire (load→load, load→store),
// release (load→store, store→store), acq_rel (all but store→load), else
// seq_cst. On AArch64 release and acq_rel are DMB ISH as seq_cst is.
func c11Fence(o cs.Ordering) int {
	switch {
	case o&^(cs.LoadLoad|cs.LoadStore) == 0:
		return orderAcquire
	case o&^(cs.LoadStore|cs.StoreStore) == 0:
		return orderRelease
	case o&cs.StoreLoad == 0:
		return orderAcqRel
	}
	return orderSeqCst
}

// orderNames are the names of the memory orders in C11 and in GCC's
// builtins, by number.
var (
	c11Orders = [...]string{"memory_order_relaxed", "memory_order_consume", "memory_order_acquire", "memory_order_release", "memory_order_acq_rel", "memory_order_seq_cst"}
	gccOrders = [...]string{"__ATOMIC_RELAXED", "__ATOMIC_CONSUME", "__ATOMIC_ACQUIRE", "__ATOMIC_RELEASE", "__ATOMIC_ACQ_REL", "__ATOMIC_SEQ_CST"}
)

// instr is the target's instruction for a barrier of kind k, as
// --fence-style asm writes it: the one the memory model names
// (memmodel's Barrier.Name) for the kinds it offers, else the cheapest
// instruction that orders k.
func (t Target) instr(k cs.FenceKind) string {
	o := k.Orders()
	switch t {
	case TargetARM:
		switch {
		case o&^(cs.LoadLoad|cs.LoadStore) == 0:
			return "dmb ishld"
		case o == cs.StoreStore:
			return "dmb ishst"
		}
		return "dmb ish"
	case TargetRISCV:
		if k == cs.TSOFence {
			return "fence.tso"
		}
		pred, succ := "", ""
		if o&(cs.LoadLoad|cs.LoadStore) != 0 {
			pred += "r"
		}
		if o&(cs.StoreLoad|cs.StoreStore) != 0 {
			pred += "w"
		}
		if o&(cs.LoadLoad|cs.StoreLoad) != 0 {
			succ += "r"
		}
		if o&(cs.LoadStore|cs.StoreStore) != 0 {
			succ += "w"
		}
		return "fence " + pred + "," + succ
	case TargetRMO:
		var parts []string
		for _, m := range membarMasks {
			if o&m.o != 0 {
				parts = append(parts, m.name)
			}
		}
		return "membar " + strings.Join(parts, "|")
	}
	if k == cs.StoreFence {
		return "sfence"
	}
	return "mfence"
}

// membarMasks are SPARC's membar mask names.
var membarMasks = []struct {
	name string
	o    cs.Ordering
}{{"#LoadLoad", cs.LoadLoad}, {"#LoadStore", cs.LoadStore}, {"#StoreLoad", cs.StoreLoad}, {"#StoreStore", cs.StoreStore}}

// asmFence reads the instruction of an asm statement (its blanks and
// ';' removed, as trimAsm leaves it) as a barrier of target t (not the
// default one): ok is false for an instruction that is none of t's
// barriers, and none is true for a compiler barrier ("").
func (t Target) asmFence(text string) (k cs.FenceKind, none, ok bool) {
	if text == "" {
		return 0, true, true
	}
	var o cs.Ordering
	switch t {
	case TargetARM:
		switch text {
		case "dmbish", "dmbsy", "dmbosh", "dmbnsh", "dsbish", "dsbsy":
			o = cs.AllOrders
		case "dmbishld", "dmbld", "dmboshld", "dmbnshld":
			o = cs.LoadLoad | cs.LoadStore
		case "dmbishst", "dmbst", "dmboshst", "dmbnshst":
			o = cs.StoreStore
		}
	case TargetRISCV:
		switch {
		case text == "fence.tso":
			return cs.TSOFence, false, true
		case text == "fence":
			o = cs.AllOrders
		case strings.HasPrefix(text, "fence"):
			pred, succ, found := strings.Cut(text[len("fence"):], ",")
			if !found {
				return 0, false, false
			}
			o = riscvOrders(pred, succ)
		}
	case TargetRMO:
		mask, found := strings.CutPrefix(text, "membar")
		if !found || mask == "" {
			return 0, false, false
		}
		for _, part := range strings.Split(mask, "|") {
			hit := false
			for _, m := range membarMasks {
				if part == m.name {
					o |= m.o
					hit = true
				}
			}
			if !hit {
				return 0, false, false
			}
		}
	}
	if o == 0 {
		return 0, false, false
	}
	return cs.MaskFence(o), false, true
}

// riscvOrders is what "fence pred,succ" orders (the i and o bits of
// device memory order nothing here); 0 for a malformed set.
func riscvOrders(pred, succ string) cs.Ordering {
	bits := func(s string) (r, w, ok bool) {
		if s == "" {
			return false, false, false
		}
		for _, c := range s {
			switch c {
			case 'r':
				r = true
			case 'w':
				w = true
			case 'i', 'o':
			default:
				return false, false, false
			}
		}
		return r, w, true
	}
	pr, pw, ok1 := bits(pred)
	sr, sw, ok2 := bits(succ)
	if !ok1 || !ok2 {
		return 0
	}
	var o cs.Ordering
	if pr && sr {
		o |= cs.LoadLoad
	}
	if pr && sw {
		o |= cs.LoadStore
	}
	if pw && sr {
		o |= cs.StoreLoad
	}
	if pw && sw {
		o |= cs.StoreStore
	}
	return o
}
