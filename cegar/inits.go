package cegar

import (
	"fencer/domains"
	"fencer/predabs"
)

// addInits stores the initial states of an exploration whose initial
// control node is c0 and returns their indices: one per initial value
// vector (domains.Layout.Inits: several when an explicit variable starts at
// any value of a declared range), each with the abstraction of the initial
// condition under its values when predicates are kept there. An initial
// vector whose cube is empty (the initial condition is false under it) is
// no state; none at all means no run. ErrDomainFull when a dynamic
// variable's initial value is outside its candidate domain.
func (x *explorer) addInits(st *stateStore, c0 *ctlNode) ([]int32, error) {
	var roots []int32
	for _, vals := range x.lay.Inits(x.ctl(c0)) {
		var cube predabs.Cube
		if pr := x.prof(c0); pr.anyKeep {
			var ok bool
			var err error
			cube, ok, err = x.e.ab.AlphaEnv(x.abs.InitFormula(), x.env(c0, vals, domains.Key(vals)), pr.keep)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		if !x.lay.Observe(x.prof(c0).dyn, vals) {
			return nil, domains.ErrDomainFull
		}
		k := st.keyOf(c0.id, vals, x.prof(c0).kept)
		if k.v < 0 {
			return nil, errVecsFull
		}
		h := st.hashOf(k)
		if _, seen := st.findHashed(k, h); seen {
			continue
		}
		roots = append(roots, st.addHashed(rnode{via: -1, parent: -1}, k, h, cube, -1))
	}
	return roots, nil
}
