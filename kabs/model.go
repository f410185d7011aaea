package kabs

import "fmt"

// Model is a memory model.
type Model uint8

const (
	SC  Model = iota // sequential consistency: writes reach memory at once
	TSO              // x86-TSO: one FIFO store buffer per process
	PSO              // one FIFO store buffer per process and variable
)

var modelNames = [...]string{"sc", "tso", "pso"}

func (m Model) String() string {
	if int(m) < len(modelNames) {
		return modelNames[m]
	}
	return fmt.Sprintf("Model(%d)", m)
}

// ParseModel reads "sc", "tso" or "pso".
func ParseModel(s string) (Model, error) {
	for i, n := range modelNames {
		if n == s {
			return Model(i), nil
		}
	}
	return 0, fmt.Errorf("unknown memory model %q (want sc, tso or pso)", s)
}
