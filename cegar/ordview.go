package cegar

import "fencer/kabs"

// useOrderView turns on, for an exploration of abs without buffers, the
// order view of counter-like values (domains/order.go, package ordview):
// the variables of the system's counter-like classes (Bakery's tickets, a
// ticket lock's counters) become explicit, with each state's values of a
// class canonicalised by their order, when that leaves no variable to
// predicates. The view is a bisimulation of the explored system as long as
// every move it takes is exact; a step that is not fails with
// domains.ErrInexact, and reach drops the view for good and explores again
// (domains.Info.DropDynamic), with the counters left to predicates as
// before. A counterexample found through the view is a schedule, classified
// by its concrete replay (explicit.go), as any other.
func (e *engine) useOrderView(abs *kabs.Abs) {
	if abs.Layout().Buffered() || e.info.OrderView() {
		return
	}
	if e.info.UseOrderView() {
		e.logf("explicit values: counter-like variables explicit in the order view")
	}
}
