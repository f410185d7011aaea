package memmodel

import (
	"sort"

	"fencer/cs"
)

// Axioms are the rules of an axiomatic model (Arm's aarch64.cat, RVWMO's
// riscv.cat, SPARC RMO), in the one shape the three share: an execution
// graph (events, program order po, reads-from rf, coherence co, from-read
// fr) is allowed when
//
//   - coherence: po-loc ∪ rf ∪ co ∪ fr is acyclic;
//   - atomicity: no write to its location comes between the write an
//     atomic step reads and the step's own write in co;
//   - order: ppo ∪ fences ∪ rfe ∪ coe ∪ fre is acyclic, where ppo is the
//     preserved program order the fields below switch on, and fences the
//     pairs each barrier between two accesses keeps (cs.FenceKind.Orders).
//
// The last is Arm's "external" axiom (ob acyclic) and RVWMO's main axiom
// (co ∪ rfe ∪ fr ∪ ppo acyclic: coi and fri lie in ppo's same-location
// rule); writes are other-multi-copy atomic in all three (a read may see
// its own process's write early: rfi is not in the order). Always in ppo:
// an access before a later write to the same variable ([M];po-loc;[W]),
// an Acquire or AcquirePC read before everything after it ([A|Q];po),
// everything before a Release write (po;[L]), and an atomic step
// annotated Acquire|Release both ways (Arm's po;[A];amo;[L];po).
type Axioms struct {
	// Addr: a read before an access whose address depends on it.
	Addr bool
	// Data: a read before a write whose value depends on it.
	Data bool
	// CtrlWrite: a read before a write that a branch on its value
	// controls (no speculative stores).
	CtrlWrite bool
	// AddrPoWrite: a read before every write after an access whose
	// address depends on it (Arm's addr;po;[W], RVWMO's rule 13).
	AddrPoWrite bool
	// DepRfi: a read before a read of its process that reads from a write
	// of its process that depends on it by address or data (RVWMO's rule
	// 12). DepLrs: the same for the read that is the write's local read
	// successor (the next read of its variable in program order, with no
	// write to it between), whatever it reads (Arm's addr;lrs, data;lrs).
	DepRfi, DepLrs bool
	// AtomicLrs: the read of a read-modify-write before an acquire read
	// that is a local read successor of its write (Arm's rmw;lrs;[A|Q]).
	// AtomicRfiAny: the write of a read-modify-write before every read of
	// its process that reads it (RVWMO's rule 3).
	AtomicLrs, AtomicRfiAny bool
	// AmoRelease: the write of a read-modify-write whose read is an
	// acquire and whose write a release before everything after it (Arm's
	// [range([A];amo;[L])];po).
	AmoRelease bool
	// AmoOne: a read-modify-write that is one instruction (not an
	// exclusive pair, cs.Pair) is one event, so the orders its
	// annotations give hold for its read and its write alike (riscv.cat's
	// AMO = R & W).
	AmoOne bool
	// SameLocReads: two reads of one variable with no write to it
	// between them in program order that read from different writes
	// (RVWMO's rule 2).
	SameLocReads bool
	// RCsc: a Release write before a later Acquire read (Arm's
	// [L];po;[A]); RCscAtomic: only when both are atomic steps (RVWMO's
	// rule 7: the annotations of AMOs and LR/SC are RCsc, those of plain
	// loads and stores are not).
	RCsc, RCscAtomic bool
}

// weak is an axiomatic model: its name, rules, barriers and whether
// fencer offers annotation raises under it.
type weak struct {
	name     string
	axioms   Axioms
	barriers []Barrier
	raise    int
}

func (m *weak) Name() string                 { return m.name }
func (m *weak) String() string               { return m.name }
func (m *weak) Layout() Layout               { return Unbuffered }
func (m *weak) Relaxes(later cs.OpKind) bool { return true }
func (m *weak) Orders(k cs.FenceKind) bool   { return k.Orders() != 0 }
func (m *weak) Axioms() *Axioms              { return &m.axioms }
func (m *weak) Barriers() []Barrier          { return append([]Barrier(nil), m.barriers...) }
func (m *weak) RaiseCost() int               { return m.raise }

// Keeps is the part of ppo that looks only at the two accesses: an
// acquire (or an annotated atomic step) before anything, anything before a
// release, and a release before an RCsc acquire. A relaxed atomic step
// orders nothing by itself.
func (m *weak) Keeps(a, b Access) bool {
	if a.Ann&(cs.Acquire|cs.AcquirePC) != 0 || b.Ann&cs.Release != 0 {
		return true
	}
	if a.Ann&cs.Release == 0 || b.Ann&cs.Acquire == 0 {
		return false
	}
	return m.axioms.RCsc || m.axioms.RCscAtomic && a.Atomic && b.Atomic
}

// The axiomatic models. Costs: fewest changes first, then the cheapest;
// a barrier that waits only for loads or orders only stores is cheaper
// than a full one, the full one with store→load order the dearest.
var (
	// ARM is AArch64 as Arm's aarch64.cat states it (other-multi-copy
	// atomic; LDAR is RCsc, LDAPR RCpc). Raising a plain access to
	// LDAR/STLR is the cheapest fix where it suffices.
	ARM Model = &weak{
		name: "arm",
		axioms: Axioms{Addr: true, Data: true, CtrlWrite: true, AddrPoWrite: true, DepLrs: true,
			AtomicLrs: true, AmoRelease: true, RCsc: true},
		barriers: []Barrier{
			{cs.LoadFence, "dmb ishld", 2},
			{cs.StoreFence, "dmb ishst", 2},
			{cs.FullFence, "dmb ish", 3},
		},
		raise: 1,
	}
	// RISCV is RVWMO, the RISC-V ISA manual's model (herd's riscv.cat).
	RISCV Model = &weak{
		name: "riscv",
		axioms: Axioms{Addr: true, Data: true, CtrlWrite: true, AddrPoWrite: true, DepRfi: true,
			AtomicRfiAny: true, SameLocReads: true, RCscAtomic: true, AmoOne: true},
		barriers: []Barrier{
			{cs.LoadFence, "fence r,rw", 2},
			{cs.StoreFence, "fence w,w", 2},
			{cs.ReleaseFence, "fence rw,w", 2},
			{cs.TSOFence, "fence.tso", 3},
			{cs.FullFence, "fence rw,rw", 4},
		},
	}
	// RMO is SPARC V9's Relaxed Memory Order as fencer reads the manual:
	// only dependencies (address, data, and a branch before a store: no
	// store is speculative), same-address order and membar keep program
	// order; writes are multi-copy atomic apart from the own store buffer.
	RMO Model = &weak{
		name:     "rmo",
		axioms:   Axioms{Addr: true, Data: true, CtrlWrite: true, AmoOne: true},
		barriers: rmoBarriers(),
	}
)

// rmoBarriers are the fifteen membar masks; a mask costs one per pair it
// orders and two more when it holds #StoreLoad, the one that waits for the
// store buffer.
func rmoBarriers() []Barrier {
	var bs []Barrier
	for o := cs.Ordering(1); o <= cs.AllOrders; o++ {
		cost, name := 0, ""
		for _, p := range []struct {
			o    cs.Ordering
			name string
		}{{cs.LoadLoad, "#LoadLoad"}, {cs.LoadStore, "#LoadStore"}, {cs.StoreLoad, "#StoreLoad"}, {cs.StoreStore, "#StoreStore"}} {
			if o&p.o != 0 {
				cost++
				if name != "" {
					name += "|"
				}
				name += p.name
			}
		}
		if o&cs.StoreLoad != 0 {
			cost += 2
		}
		bs = append(bs, Barrier{cs.MaskFence(o), "membar " + name, cost})
	}
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].Cost < bs[j].Cost }) // cheapest first
	return bs
}

// BarrierOf is the barrier of kind k that m offers, if any.
func BarrierOf(m Model, k cs.FenceKind) (Barrier, bool) {
	for _, b := range m.Barriers() {
		if b.Kind == k {
			return b, true
		}
	}
	return Barrier{}, false
}

// RMWAnn is the annotation that orders the read (write false) or the
// write of an atomic step annotated ann under m, for the robustness
// analysis, which sees the step's accesses one by one: the read has the
// acquire, the write the release. On a model where an atomic instruction
// is one event (AmoOne, not an exclusive pair) both have both; so they do
// on Arm for a step with an acquire and a release (its write is kept
// before what follows, AmoRelease, and a from-read edge that leaves its
// read can leave its write as a coherence edge instead: atomicity puts
// the write right after what the read reads). ann is the step's
// annotation without the release when the step writes nothing.
func RMWAnn(m Model, ann cs.Ann, write bool) cs.Ann {
	ax := m.Axioms()
	order := cs.Acquire | cs.AcquirePC | cs.Release
	single := ann&cs.Pair == 0 // one instruction, not an exclusive pair
	if ax == nil || ax.AmoOne && single ||
		ax.AmoRelease && single && ann&cs.Acquire != 0 && ann&cs.Release != 0 {
		return ann & order
	}
	if !write {
		return ann & (cs.Acquire | cs.AcquirePC)
	}
	return ann & cs.Release
}
