package kabs

import (
	"fencer/cs"
	"fencer/memmodel"
)

// The names below are those of the memory model and its explicit checker
// from before they moved to package memmodel. They are kept for the
// command's report files, which another change is moving into a package of
// their own; new code uses memmodel. Remove them when nothing uses them.
type (
	Model    = memmodel.Model
	Concrete = memmodel.Concrete
	State    = memmodel.State
	Entry    = memmodel.Entry
	Step     = memmodel.Step
	Trace    = memmodel.Trace
	Limits   = memmodel.Limits
	Result   = memmodel.Result
	Verdict  = memmodel.Verdict
)

var (
	SC  = memmodel.SC
	TSO = memmodel.TSO
	PSO = memmodel.PSO
)

const (
	Safe    = memmodel.Safe
	Unsafe  = memmodel.Unsafe
	Bounded = memmodel.Bounded
)

// NewConcrete is memmodel.NewConcrete.
func NewConcrete(sys *cs.System, m Model) *Concrete { return memmodel.NewConcrete(sys, m) }

// ParseModel is memmodel.Parse.
func ParseModel(s string) (Model, error) { return memmodel.Parse(s) }
