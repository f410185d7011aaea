package domains

import (
	"fencer/cs"
)

// This file forgets the values of the variables that decide nothing.
//
// A variable that no guard depends on, directly or through the values
// computed from it (relevant, dynamic.go: a counter that is incremented
// and never tested, the temporary that carries it, the buffer slots and
// last-write values of its writes), never changes which steps are enabled
// nor where a process is, and a bad state is a set of locations or a
// failed assert (an assume over what it tests). The system with such a
// variable held at 0 (every assignment to it, or to a buffer slot or
// last-write value of a write to it, assigning 0) has the same runs as
// far as steps, locations and the other variables go: the projection that
// forgets these values is a bisimulation, so both reach the same bad
// states, and a schedule is a run of one exactly when it is a run of the
// other. The engine explores the forgetful one and replays every
// counterexample with concrete values (memmodel's explicit checker), so
// the traces it shows have the real values.
//
// Without it such a variable is neither static (its values grow through
// memory: t = c; c = t + 1) nor dynamic (dynamic variables must be
// relevant: tracking them only multiplies the states), so it kept the
// whole system out of the explicit exploration (AllFinite) and, being a
// counter, in the order view, whose canonical forms cost a third of the
// time and multiplied the states by the counter's values (issue 38: the
// shared counter of the generated rings).
//
// Only deterministic variables are forgotten (a declared initial value,
// never havocked), and only when that leaves every variable explicit; when
// an exploration later makes a dynamic variable unbounded, the values are
// remembered again (unforget), as before.

// zeroOnly is the domain of a forgotten variable.
var zeroOnly = []int64{0}

// forgetIrrelevant forgets the deterministic variables that no guard
// depends on, when every other variable is explicit.
func (in *Info) forgetIrrelevant() {
	rel := in.relevant()
	havoc := map[string]bool{}
	for _, op := range in.ops {
		if op.Kind == cs.OpHavoc {
			havoc[op.Local] = true
		}
	}
	forgot := map[string]bool{}
	for _, d := range in.sys.Decls() {
		v := d.Name
		if _, ok := in.dom[v]; ok {
			continue
		}
		if _, ok := in.dyn[v]; ok {
			continue
		}
		if rel[v] || havoc[v] || d.Init.Nondet {
			return // some variable stays unbounded: nothing is gained
		}
		forgot[v] = true
	}
	if len(forgot) > 0 {
		in.forgot = forgot
	}
}

// unforget remembers the forgotten variables again when some variable is
// no longer explicit (a dynamic one made unbounded): the system is then
// explored with predicates or the order view, as it would have been.
func (in *Info) unforget() {
	if in.forgot != nil && len(in.dom)+len(in.dyn)+len(in.forgot) != in.nVar {
		in.forgot = nil
	}
}

// Forgotten reports whether the value of v is forgotten: held at 0 in
// every exploration (see above).
func (in *Info) Forgotten(v string) bool { return in.forgot[v] }
