package cegar

// A staged exploration (doc.go, "Staged exploration") explores the
// exact-only graph of a k-abstraction (kx) in two stages: stage 1 is the
// part in which no buffer holds more than stage1K exact writes, explored
// exactly as the exact-only exploration under k = stage1K would explore
// it (the same ample sets, the same order, so the same counterexample);
// the steps that would put more writes in a buffer (compStep.held) are
// held back, and stage 2 takes them from the states stage 1 expanded in
// full and explores on from there under kx. Every state is expanded once
// in all, with an ample set that is one of kx's graph, so the states of
// both stages are those of a reduced graph of kx's exact-only part.

// isHeld reports whether stage 1 holds step i of b back.
func isHeld(b *nodeSteps, i int32) bool {
	_, s := b.step(i)
	return s.held
}

// visitHeld visits the steps of e's state that stage 1 held back (it
// expanded the state in full then): stage 2's first level.
func (e *expansion) visitHeld() {
	b := e.b
	idx := e.w.taken[:0]
	for p, c := range b.comps {
		if c == nil || c.held == 0 {
			continue
		}
		for j := range c.steps {
			if c.steps[j].held && !e.asleep(b.off[p]+int32(j)) {
				idx = append(idx, b.off[p]+int32(j))
			}
		}
	}
	e.w.taken = idx
	e.visitAll(idx)
}

// visitAll resolves the steps idx of e's state and visits them in order,
// up to the first that reaches a bad state; an error goes to the item.
func (e *expansion) visitAll(idx []int32) {
	if len(idx) == 0 {
		return
	}
	if err := e.x.resolve(e.w, e.b, idx, e.x.por != nil); err != nil {
		e.it.err = err
		return
	}
	for _, i := range idx {
		if _, err := e.visit(i); err != nil {
			e.it.err = err
			return
		}
		if e.stop {
			return
		}
	}
}

// replayStage sets x.stage to the stage in which the stored state i was
// stored, for rebuilding the steps that reached it (replay): the ample
// sets of the states passed through on the way are those of that stage.
func (x *explorer) replayStage(i int32) {
	switch {
	case x.stage1K == 0:
	case i < x.n1:
		x.stage = 1
	default:
		x.stage = 2
	}
}

// endStage1 records that stage 1 ended with no bad state, having stored
// states states and expanded held of them in full with steps held back.
func (x *explorer) endStage1(states, held int) {
	x.e.stage1 = &partRun{states: states, dropped: x.heldN.Load()}
	x.e.logf("staged exploration under k=%d: no bad state with at most %d exact writes per buffer (%d states; %d of them go on with %d writes held back)",
		x.abs.K, x.stage1K, states, held, x.heldN.Load())
}
