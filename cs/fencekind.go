package cs

import (
	"fmt"
	"strings"
)

// FenceKind is the kind of a fence: which pairs of accesses of its process
// (one before it, one after it in program order) it keeps in order. What
// each kind costs and is written as under each memory model is the model's
// and the format's to say (packages memmodel, formats); the front end only
// records which one the source wrote.
//
// FullFence is 0, so that an Op that is no fence has FullFence as its
// Fence. Every other kind is a non-empty Ordering (MaskFence); the two that
// the store-buffer models know have names of their own.
type FenceKind uint8

const (
	// FullFence ("fence;") orders every access before it with every access
	// after it: under the store-buffer models it waits until every write of
	// its process before it has reached memory.
	FullFence FenceKind = iota
	// StoreFence ("fence store;") orders writes before it with writes after
	// it, and nothing else: it does not wait.
	StoreFence
	// maskBase is the first kind named by its Ordering: kind maskBase+o
	// for the orderings o other than all four and store–store alone.
	maskBase
)

// Ordering is a set of the four program-order pairs a barrier can keep:
// SPARC's membar mask, and what RISC-V's fence pred,succ and Arm's DMB
// variants order.
type Ordering uint8

const (
	LoadLoad   Ordering = 1 << iota // a read before, a read after
	LoadStore                       // a read before, a write after
	StoreLoad                       // a write before, a read after
	StoreStore                      // a write before, a write after

	AllOrders Ordering = LoadLoad | LoadStore | StoreLoad | StoreStore
)

// Named kinds of the weak models, by what they order.
var (
	// LoadFence ("fence load;") orders reads before it with every access
	// after it: Arm's DMB ISHLD, RISC-V's fence r,rw, C11's acquire fence.
	LoadFence = MaskFence(LoadLoad | LoadStore)
	// ReleaseFence ("fence release;") orders every access before it with
	// writes after it: RISC-V's fence rw,w.
	ReleaseFence = MaskFence(LoadStore | StoreStore)
	// TSOFence ("fence tso;") keeps every order but write→read: RISC-V's
	// fence.tso.
	TSOFence = MaskFence(LoadLoad | LoadStore | StoreStore)
)

// MaskFence is the kind of a fence that orders exactly o (non-empty).
func MaskFence(o Ordering) FenceKind {
	switch o &= AllOrders; o {
	case AllOrders:
		return FullFence
	case StoreStore:
		return StoreFence
	case 0:
		panic("cs.MaskFence: an empty ordering")
	}
	return maskBase + FenceKind(o)
}

// Orders is the set of pairs a fence of kind k keeps in order.
func (k FenceKind) Orders() Ordering {
	switch k {
	case FullFence:
		return AllOrders
	case StoreFence:
		return StoreStore
	}
	return Ordering(k-maskBase) & AllOrders
}

// Keeps reports whether a fence of kind k keeps an access of kind before
// (cs.OpRead or cs.OpWrite) ahead of one of kind after.
func (k FenceKind) Keeps(before, after OpKind) bool {
	return k.Orders().Has(before, after)
}

// Has reports whether o holds the pair (before, after), each OpRead or
// OpWrite.
func (o Ordering) Has(before, after OpKind) bool {
	return o&pairOrdering(before, after) != 0
}

func pairOrdering(before, after OpKind) Ordering {
	switch {
	case before == OpRead && after == OpRead:
		return LoadLoad
	case before == OpRead:
		return LoadStore
	case after == OpRead:
		return StoreLoad
	}
	return StoreStore
}

// Covers reports whether a fence of kind k orders everything one of kind
// j does.
func (k FenceKind) Covers(j FenceKind) bool { return j.Orders()&^k.Orders() == 0 }

// fenceWords are the single-word kinds of the .cs syntax, after "fence".
var fenceWords = map[string]FenceKind{
	"store":   StoreFence,
	"load":    LoadFence,
	"release": ReleaseFence,
	"tso":     TSOFence,
}

// orderingWords are the words of a mask fence ("fence loadload storestore;").
var orderingWords = []struct {
	word string
	o    Ordering
}{{"loadload", LoadLoad}, {"loadstore", LoadStore}, {"storeload", StoreLoad}, {"storestore", StoreStore}}

// orderingOf is the pair a word of a mask fence names ("loadstore").
func orderingOf(word string) (Ordering, bool) {
	for _, ow := range orderingWords {
		if ow.word == word {
			return ow.o, true
		}
	}
	return 0, false
}

// String is "full", "store", "load", "release", "tso", or the pairs of a
// mask fence joined by '+' ("loadload+storestore"): the names of
// fencer insert --kinds and of the .cs syntax.
func (k FenceKind) String() string {
	if k == FullFence {
		return "full"
	}
	for w, j := range fenceWords {
		if j == k {
			return w
		}
	}
	o := k.Orders()
	if o == 0 {
		return fmt.Sprintf("FenceKind(%d)", k)
	}
	var parts []string
	for _, ow := range orderingWords {
		if o&ow.o != 0 {
			parts = append(parts, ow.word)
		}
	}
	return strings.Join(parts, "+")
}

// Syntax is the fence statement of kind k in .cs: "fence;", "fence store;",
// "fence loadload storestore;".
func (k FenceKind) Syntax() string {
	if k == FullFence {
		return "fence;"
	}
	return "fence " + strings.ReplaceAll(k.String(), "+", " ") + ";"
}

// ParseFenceKind reads a kind by the name String gives it.
func ParseFenceKind(s string) (FenceKind, bool) {
	if s == "full" {
		return FullFence, true
	}
	if k, ok := fenceWords[s]; ok {
		return k, true
	}
	var o Ordering
	for _, w := range strings.Split(s, "+") {
		p, ok := orderingOf(w)
		if !ok {
			return 0, false
		}
		o |= p
	}
	if o == 0 {
		return 0, false
	}
	return MaskFence(o), true
}

// Ann is how an access is annotated: the acquire and release orders of
// Arm's LDAR/LDAPR/STLR, RISC-V's .aq/.rl, and C11's memory_order on the
// targets that are not store buffers. The store-buffer models ignore it
// (on x86 and SPARC PSO the mapping of C11 orders is all in fences).
type Ann uint8

const (
	// Acquire (LDAR, .aq): every access after it in program order stays
	// after it; an Acquire read after a Release write stays after it too
	// (RCsc).
	Acquire Ann = 1 << iota
	// AcquirePC (LDAPR): as Acquire, without the order after a Release.
	AcquirePC
	// Release (STLR, .rl): every access before it in program order stays
	// before it.
	Release
	// NoRet marks an atomic step whose read returns no value to the
	// program (Arm's ST<op>, an LD<op>, SWP or CAS whose destination is
	// the zero register): aarch64.cat's DMB LD does not order it
	// ([R \ NoRet]; po; [dmb.ld]); a full barrier does.
	NoRet
	// Pair marks an atomic step that is an exclusive pair of two
	// instructions (RISC-V's lr/sc, Arm's LDXR/STXR), each with its own
	// order, rather than one atomic instruction (a RISC-V AMO is one event
	// of riscv.cat that both reads and writes, its annotations orders for
	// both).
	Pair
	// Relaxed marks, in the syntax tree only, an atomic step that a reader
	// knows to have no order (a relaxed C11 RMW, SWP without A/L): an
	// atomic step whose tree has no annotation is a seq_cst one, Acquire|
	// Release (rmwAnn).
	Relaxed
)

// rmwAnn is the Op.Ann of an atomic step whose syntax tree says a.
func rmwAnn(a Ann) Ann {
	if a&Pair != 0 {
		return rmwAnn(a&^Pair) | Pair
	}
	switch {
	case a == 0:
		return Acquire | Release
	case a&Relaxed != 0:
		return a & NoRet
	case a == NoRet:
		return Acquire | Release | NoRet
	}
	return a
}

// String is "", "acquire", "acquirepc", "release", or "acquire+release".
func (a Ann) String() string {
	var parts []string
	if a&Acquire != 0 {
		parts = append(parts, "acquire")
	}
	if a&AcquirePC != 0 {
		parts = append(parts, "acquirepc")
	}
	if a&Release != 0 {
		parts = append(parts, "release")
	}
	if a&Relaxed != 0 {
		parts = append(parts, "relaxed")
	}
	if a&NoRet != 0 {
		parts = append(parts, "noret")
	}
	if a&Pair != 0 {
		parts = append(parts, "pair")
	}
	return strings.Join(parts, "+")
}
