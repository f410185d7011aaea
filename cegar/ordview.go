package cegar

import (
	"context"
	"errors"

	"fencer/domains"
	"fencer/kabs"
)

// useOrderView turns on, for the explorations of abs's buffer layout, the
// order view of counter-like values (domains/order.go, package ordview):
// the variables of the system's counter-like classes (Bakery's tickets, a
// ticket lock's counters) become explicit, with each state's values of a
// class canonicalised by their order, when that leaves no variable to
// predicates (under TSO and PSO with the buffer slots, last-write values
// and tail value sets of class variables in their classes). The view is a
// bisimulation of the explored system as long as
// every move it takes is exact; a step that is not is widened (one
// version of the state per width of the cut gap it approaches), which
// keeps the view a simulation: "no bad state" holds, and a counterexample
// is checked by reachView before the engine sees it. The partial-order
// reduction stays sound with a widened step, although two steps need not
// commute in the widened system: its ample set is a function of the
// control state and of the enabledness of p's edges, which the view
// decides as the concrete system does, so by induction every state of the
// concrete system's reduced graph has its canonical form in the reduced
// graph explored (the concrete reduced graph reaches every reachable bad
// location, doc.go "Partial-order reduction").
func (e *engine) useOrderView(abs *kabs.Abs) {
	if e.info.OrderView() {
		return
	}
	if e.info.UseOrderViewWith(abs.Layout()) {
		e.logf("explicit values: counter-like variables explicit in the order view")
	}
}

// reachView is reach with the check that a counterexample found through
// a widened order view is a run of the k-abstraction: its schedule is
// applied with concrete values (domains.NewConcreteLayout). A schedule
// that is not enabled there went through a widened step that no concrete
// state takes (the view over-approximates only there): the view is
// dropped for good (domains.Info.DropDynamic) and reach explores again
// with the counters left to predicates, as without the view. A
// counterexample that replays is classified as any other (classify:
// with every variable explicit, a run of the k-abstraction is what it
// assumes).
func (e *engine) reachView(ctx context.Context, abs *kabs.Abs) (*path, error) {
	for {
		p, err := e.reach(ctx, abs)
		if err != nil || p == nil || !e.info.OrderWidened() {
			return p, err
		}
		ok, err := feasibleConcrete(e.info, abs, p.steps)
		if err == nil && ok {
			return p, nil
		}
		e.logf("explicit values: a counterexample of %d steps went through a widened step of the order view and is not a run of the k-abstraction; the view dropped, exploring again", len(p.steps))
		if !e.info.DropDynamic() {
			return nil, errors.New("internal error: the order view could not be dropped")
		}
	}
}

// feasibleConcrete reports whether the schedule steps is a run of abs
// with concrete values, following every UPDATE-AM choice
// (feasibleExplicit with the concrete layout); errNotExplicit when a step
// of it is not explicit.
func feasibleConcrete(info *domains.Info, abs *kabs.Abs, steps []kabs.AStep) (bool, error) {
	return feasibleWith(domains.NewConcreteLayout(info, abs), abs, steps)
}
