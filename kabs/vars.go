package kabs

import (
	"strconv"
	"strings"
)

// The variables of the abstraction besides the program's own: kabs names
// them, and ParseVar is the one place that reads such a name back, so that
// no other package takes "P#lw(x)" apart as a string.

// SlotVar names b_{p,i}, the value of the i-th (1-based) exact write in the
// buffer of process p.
func SlotVar(proc string, i int) string { return proc + "#b" + strconv.Itoa(i) }

// SlotVarX names b_{p,x,i}, the value of the i-th exact write to x in the
// PSO buffer of process p for x.
func SlotVarX(proc, x string, i int) string { return proc + "#b(" + x + ")" + strconv.Itoa(i) }

// LWVar names lw_{p,x}, the value of p's newest buffered write to x.
func LWVar(proc, x string) string { return proc + "#lw(" + x + ")" }

// StepVar names the i-th value a single step chooses (a havoc or a read
// from memory): existentially quantified in the step's transition.
func StepVar(i int) string { return "?e" + strconv.Itoa(i) }

// VarKind says what a variable of a transition stands for.
type VarKind uint8

const (
	VarProgram VarKind = iota // a shared variable, or a name kabs did not make
	VarLocal                  // a local of process Proc: "Proc.name", cs's naming
	VarSlot                   // b_{Proc,Slot} (TSO)
	VarSlotX                  // b_{Proc,Shared,Slot} (PSO)
	VarLW                     // lw_{Proc,Shared}
	VarStep                   // a value chosen within one step (StepVar)
)

// VarInfo is what ParseVar reads from a name.
type VarInfo struct {
	Kind   VarKind
	Proc   string // VarLocal, VarSlot, VarSlotX, VarLW
	Shared string // VarSlotX, VarLW
	Slot   int    // VarSlot, VarSlotX: 1-based
}

// ParseVar reads a variable name made by SlotVar, SlotVarX, LWVar,
// StepVar, or cs's "process.local".
func ParseVar(name string) VarInfo {
	if strings.HasPrefix(name, "?") {
		return VarInfo{Kind: VarStep}
	}
	if proc, rest, ok := strings.Cut(name, "#"); ok {
		switch {
		case strings.HasPrefix(rest, "lw(") && strings.HasSuffix(rest, ")"):
			return VarInfo{Kind: VarLW, Proc: proc, Shared: rest[3 : len(rest)-1]}
		case strings.HasPrefix(rest, "b("):
			k := strings.LastIndexByte(rest, ')')
			if n, err := strconv.Atoi(rest[k+1:]); k > 2 && err == nil {
				return VarInfo{Kind: VarSlotX, Proc: proc, Shared: rest[2:k], Slot: n}
			}
		case strings.HasPrefix(rest, "b"):
			if n, err := strconv.Atoi(rest[1:]); err == nil {
				return VarInfo{Kind: VarSlot, Proc: proc, Slot: n}
			}
		}
		return VarInfo{Kind: VarProgram}
	}
	if proc, _, ok := strings.Cut(name, "."); ok {
		return VarInfo{Kind: VarLocal, Proc: proc}
	}
	return VarInfo{Kind: VarProgram}
}
