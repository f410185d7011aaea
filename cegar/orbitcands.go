package cegar

import (
	"fmt"
	"slices"

	"fencer/cs"
	"fencer/fences"
	"fencer/memmodel"
)

// Candidate sets closed under the automorphisms (doc.go, "Candidate sets
// and symmetry"): a real counterexample w, found with some fences
// installed, is also a run of the system without them (a fence step only
// waits), and its image under an automorphism of that system is a run of
// it too, to a bad state. Every correct fence set must block each image,
// so the candidate set of each image is evidence like the one found.

// imageCandidates returns the candidate sets of the images of the real
// counterexample w of r.sys with fences installed, under the
// automorphisms of r.sys, each with its witness (the image, replayed by
// the explicit checker on r.sys); sets already in have are left out, and
// so are duplicates.
func (e *engine) imageCandidates(r *refiner, w *Witness, have [][]fences.Element) ([][]fences.Element, []*Witness, error) {
	if e.opt.NoSymmetry || r.sym == nil || len(r.sym.elems) == 0 {
		return nil, nil, nil
	}
	base, err := unfencedTrace(r.sys, w)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, c := range have {
		seen[elementsKey(c)] = true
	}
	slots := concreteSlots(r.sys)
	c := memmodel.NewConcrete(r.sys, w.Model)
	var cands [][]fences.Element
	var wits []*Witness
	for _, a := range r.sym.elems {
		tr := imageTrace(r.sym, a, slots, base)
		states, err := c.Replay(tr)
		if err != nil || !c.IsBadState(states[len(states)-1]) {
			return nil, nil, fmt.Errorf("internal error: the image of a counterexample under an automorphism of the system is not a run to a bad state (%v)", err)
		}
		iw := &Witness{Sys: r.sys, Model: w.Model, Trace: tr, States: states}
		cand := candidates(iw, e.opt.StoreFences)
		k := elementsKey(cand)
		if len(cand) == 0 || seen[k] {
			continue
		}
		seen[k] = true
		cands = append(cands, cand)
		wits = append(wits, iw)
	}
	return cands, wits, nil
}

// elementsKey identifies a set of fence elements (sorted or not).
func elementsKey(set []fences.Element) string {
	s := slices.Clone(set)
	slices.SortFunc(s, func(a, b fences.Element) int {
		if a.Site != b.Site {
			return a.Site - b.Site
		}
		return int(a.Kind) - int(b.Kind)
	})
	return fmt.Sprint(s)
}

// unfencedTrace returns the trace of w as a run of sys, of which w.Sys is
// sys with fence steps added (cs.System.WithFenceKinds: each fenced edge
// l --op--> l' became l --op--> m --fence--> l' with m a new location):
// the added fence steps are dropped and the edges renumbered.
func unfencedTrace(sys *cs.System, w *Witness) (*memmodel.Trace, error) {
	if w.Sys == sys {
		return w.Trace, nil
	}
	// orig[p][j] is the edge of sys that edge j of w.Sys's process p comes
	// from, or -1 for an added fence step.
	orig := make([][]int, len(sys.Procs))
	for p, proc := range sys.Procs {
		fp := w.Sys.Procs[p]
		j := 0
		for i, ed := range proc.Edges {
			if j >= len(fp.Edges) {
				return nil, fmt.Errorf("internal error: the fenced system has fewer edges")
			}
			orig[p] = append(orig[p], i)
			j++
			if fp.Edges[j-1].To != ed.To {
				orig[p] = append(orig[p], -1)
				j++
			}
		}
		if j != len(fp.Edges) {
			return nil, fmt.Errorf("internal error: the fenced system does not match its system")
		}
	}
	out := &memmodel.Trace{Init: w.Trace.Init}
	for _, st := range w.Trace.Steps {
		if !st.IsFlush() {
			if st.Edge = orig[st.Proc][st.Edge]; st.Edge < 0 {
				continue
			}
		}
		out.Steps = append(out.Steps, st)
	}
	return out, nil
}

// concreteSlots maps each variable to its index in a memmodel value
// vector: the shared variables, then the locals of each process.
func concreteSlots(sys *cs.System) map[string]int {
	m := map[string]int{}
	for _, v := range sys.Shared {
		m[v.Name] = len(m)
	}
	for _, p := range sys.Procs {
		for _, v := range p.Locals {
			m[v.Name] = len(m)
		}
	}
	return m
}

// imageTrace returns tr with process p's steps made π(p)'s (the same
// edges), flushes of x made flushes of σ(x), and the initial values
// renamed.
func imageTrace(g *group, a *auto, slots map[string]int, tr *memmodel.Trace) *memmodel.Trace {
	out := &memmodel.Trace{Steps: make([]memmodel.Step, len(tr.Steps))}
	if len(tr.Init) > 0 {
		out.Init = make([]int64, len(tr.Init))
		for name, i := range slots {
			if i < len(tr.Init) {
				out.Init[slots[g.rename(name, a)]] = tr.Init[i]
			}
		}
	}
	for i, st := range tr.Steps {
		st.Proc = a.proc[st.Proc]
		if st.IsFlush() && st.Var >= 0 && st.Var < len(a.shared) {
			st.Var = a.shared[st.Var]
		}
		out.Steps[i] = st
	}
	return out
}
