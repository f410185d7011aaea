package memmodel

import (
	"fmt"
	"strings"

	"fencer/cs"
)

// Model is a memory model. Its values are SC, the store-buffer models TSO
// and PSO, and the axiomatic models ARM, RISCV and RMO (the registry,
// Models); they compare with ==. Everything the rest of fencer asks of a
// model goes through these methods, so that a new store-buffer model is a
// new implementation here (and, for its k-abstraction, a layout kabs
// knows), and a new axiomatic one a new set of Axioms (weak.go).
type Model interface {
	// Name is the model's name on the command line, in reports and in
	// "// fencer: expect" lines: "sc", "tso", "pso".
	Name() string
	// String is Name.
	String() string
	// Layout is the buffer layout of the exact semantics (Concrete) and
	// of its k-abstraction (kabs).
	Layout() Layout
	// Relaxes reports whether the model may let a later access of kind
	// later (cs.OpRead or cs.OpWrite) of another variable go ahead of a
	// buffered write of the same process: the relaxed program-order edges
	// of the robustness analysis (TSO: write→read; PSO: write→read and
	// write→write).
	Relaxes(later cs.OpKind) bool
	// Orders reports whether a fence of kind k ever makes a process wait
	// or keeps writes in an order they would not have anyway: a full
	// fence under every buffered model, a store fence only where writes
	// of a process can reach memory out of order (PSO). A fence of a kind
	// that orders nothing never blocks a counterexample (package fences).
	Orders(k cs.FenceKind) bool
	// Keeps reports whether the model keeps access a before a later
	// access b of the same process to another variable when nothing lies
	// between them (no barrier, no dependency): its preserved program
	// order on kinds and annotations. Package robust builds its relaxed
	// pairs from it.
	Keeps(a, b Access) bool
	// Axioms is nil for SC and the store-buffer models, whose exact
	// semantics is Concrete; for the other models it is the rules that
	// decide which execution graphs the model allows (package execgraph).
	Axioms() *Axioms
	// Barriers lists the fence kinds fencer may insert under the model,
	// with their instruction and cost, cheapest first.
	Barriers() []Barrier
	// RaiseCost is the cost of making a plain read an acquire or a plain
	// write a release (LDAR/STLR), or 0 when fencer does not offer it
	// under the model.
	RaiseCost() int
}

// Access is what a model's preserved program order looks at in an access:
// read or write, its annotation, and whether it is an atomic step (an
// OpAtomic: a read-modify-write, which is both).
type Access struct {
	Kind   cs.OpKind // cs.OpRead or cs.OpWrite; an atomic step's is OpWrite
	Ann    cs.Ann
	Atomic bool
}

// Barrier is a fence kind as a model offers it.
type Barrier struct {
	Kind cs.FenceKind
	Name string // the instruction: "mfence", "dmb ishld", "fence r,rw", "membar #StoreLoad"
	Cost int    // relative cost, the tie-break between fixes of equal size
}

// Layout is how a model buffers writes.
type Layout uint8

const (
	// Unbuffered: every write reaches memory at once (SC).
	Unbuffered Layout = iota
	// PerProcess: one FIFO buffer per process; a read is served by the
	// newest buffered write of its process to its variable, and the oldest
	// write of a buffer reaches memory first (TSO).
	PerProcess
	// PerVariable: one FIFO buffer per process and variable; writes of a
	// process to different variables reach memory in any order, except
	// across a store fence (Entry.Epoch) (PSO).
	PerVariable
)

// Buffered reports whether writes wait in buffers under the layout.
func (l Layout) Buffered() bool { return l != Unbuffered }

// bufferKeeps is the preserved program order of a store-buffer model that
// lets a buffered write be passed by later accesses of the kinds relaxed
// says: an atomic step drains the buffers, so it is passed by nothing and
// passes nothing.
func bufferKeeps(a, b Access, relaxed func(cs.OpKind) bool) bool {
	if a.Atomic || b.Atomic || a.Kind != cs.OpWrite {
		return true
	}
	return !relaxed(b.Kind)
}

type sc struct{}

func (sc) Name() string                 { return "sc" }
func (sc) String() string               { return "sc" }
func (sc) Layout() Layout               { return Unbuffered }
func (sc) Relaxes(later cs.OpKind) bool { return false }
func (sc) Orders(k cs.FenceKind) bool   { return false }
func (sc) Keeps(a, b Access) bool       { return true }
func (sc) Axioms() *Axioms              { return nil }
func (sc) Barriers() []Barrier          { return nil }
func (sc) RaiseCost() int               { return 0 }

type tso struct{}

func (tso) Name() string                 { return "tso" }
func (tso) String() string               { return "tso" }
func (tso) Layout() Layout               { return PerProcess }
func (tso) Relaxes(later cs.OpKind) bool { return later == cs.OpRead }
func (tso) Orders(k cs.FenceKind) bool   { return k == cs.FullFence }
func (m tso) Keeps(a, b Access) bool     { return bufferKeeps(a, b, m.Relaxes) }
func (tso) Axioms() *Axioms              { return nil }
func (tso) Barriers() []Barrier          { return []Barrier{{cs.FullFence, "mfence", 1}} }
func (tso) RaiseCost() int               { return 0 }

type pso struct{}

func (pso) Name() string   { return "pso" }
func (pso) String() string { return "pso" }
func (pso) Layout() Layout { return PerVariable }
func (pso) Relaxes(later cs.OpKind) bool {
	return later == cs.OpRead || later == cs.OpWrite
}
func (pso) Orders(k cs.FenceKind) bool { return true }
func (m pso) Keeps(a, b Access) bool   { return bufferKeeps(a, b, m.Relaxes) }
func (pso) Axioms() *Axioms            { return nil }
func (pso) Barriers() []Barrier {
	return []Barrier{{cs.StoreFence, "membar #StoreStore", 1}, {cs.FullFence, "membar #StoreLoad", 2}}
}
func (pso) RaiseCost() int { return 0 }

// The models fencer knows.
var (
	SC  Model = sc{}  // sequential consistency: writes reach memory at once
	TSO Model = tso{} // x86-TSO: one FIFO store buffer per process
	PSO Model = pso{} // one FIFO store buffer per process and variable
)

// models is the registry: every model by name, in the order of Names.
var models = []Model{SC, TSO, PSO, ARM, RISCV, RMO}

// Models returns the models of the registry, strongest first.
func Models() []Model { return append([]Model(nil), models...) }

// BufferModels returns SC and the store-buffer models of the registry:
// those the exact semantics (Concrete) and the k-abstraction run.
func BufferModels() []Model {
	var out []Model
	for _, m := range models {
		if m.Axioms() == nil {
			out = append(out, m)
		}
	}
	return out
}

// Parse returns the model named s ("sc", "tso", "pso", "arm", "riscv" or
// "rmo").
func Parse(s string) (Model, error) {
	for _, m := range models {
		if m.Name() == s {
			return m, nil
		}
	}
	return nil, fmt.Errorf("unknown memory model %q (want %s)", s, Names())
}

// Names lists the names of the models of the registry for messages and
// help texts: "sc, tso, pso, arm, riscv or rmo".
func Names() string {
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name()
	}
	return orList(names)
}

// orList is "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// OrSC is m, or SC when m is nil (the zero value of a Model field).
func OrSC(m Model) Model {
	if m == nil {
		return SC
	}
	return m
}
