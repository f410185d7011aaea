package memmodel

import (
	"fmt"
	"strings"

	"fencer/cs"
)

// Model is a memory model: how a process's writes wait in store buffers
// before they reach memory. Its values are SC, TSO and PSO (the registry,
// Models); they compare with ==. Everything the rest of fencer asks of a
// model goes through these methods, so that a new store-buffer model is a
// new implementation here (and, for its k-abstraction, a layout kabs knows).
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

type sc struct{}

func (sc) Name() string                 { return "sc" }
func (sc) String() string               { return "sc" }
func (sc) Layout() Layout               { return Unbuffered }
func (sc) Relaxes(later cs.OpKind) bool { return false }
func (sc) Orders(k cs.FenceKind) bool   { return false }

type tso struct{}

func (tso) Name() string                 { return "tso" }
func (tso) String() string               { return "tso" }
func (tso) Layout() Layout               { return PerProcess }
func (tso) Relaxes(later cs.OpKind) bool { return later == cs.OpRead }
func (tso) Orders(k cs.FenceKind) bool   { return k == cs.FullFence }

type pso struct{}

func (pso) Name() string   { return "pso" }
func (pso) String() string { return "pso" }
func (pso) Layout() Layout { return PerVariable }
func (pso) Relaxes(later cs.OpKind) bool {
	return later == cs.OpRead || later == cs.OpWrite
}
func (pso) Orders(k cs.FenceKind) bool { return true }

// The models fencer knows.
var (
	SC  Model = sc{}  // sequential consistency: writes reach memory at once
	TSO Model = tso{} // x86-TSO: one FIFO store buffer per process
	PSO Model = pso{} // one FIFO store buffer per process and variable
)

// models is the registry: every model by name, in the order of Names.
var models = []Model{SC, TSO, PSO}

// Models returns the models of the registry, strongest first.
func Models() []Model { return append([]Model(nil), models...) }

// Parse returns the model named s ("sc", "tso" or "pso").
func Parse(s string) (Model, error) {
	for _, m := range models {
		if m.Name() == s {
			return m, nil
		}
	}
	return nil, fmt.Errorf("unknown memory model %q (want %s)", s, Names())
}

// Names lists the names of the models of the registry for messages and
// help texts: "sc, tso or pso".
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
