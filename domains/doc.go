// Package domains finds the variables of a concurrent system whose values
// always lie in a finite set, and gives the abstract state of fencer's engine
// its explicit-value component.
//
// # The analysis
//
// Analyze is a fixpoint over every operation of every process (atomic
// bodies included). A shared variable has one set of values (any process
// may write it at any time); the locals of a process have one set per
// location, so that guards bound them: an assume keeps, for each of its
// variables, the values for which some combination of the others satisfies
// it (in `while (r < 2) { r = r + 1; }`, r stays in {0, 1, 2}). A variable
// starts with its declared value; an assignment or write adds the values of
// its right-hand side over every combination of the values of its operands;
// a read of x into r gives r the set of x; a conjunction filters by each of
// its conjuncts in turn. A variable that starts at any value of a declared
// range (cs.Init.Ranged) starts with that range (nondet.go). Any other
// nondeterministic initial value, a havoc
// (r = *), an operand that is unbounded, an arithmetic error, or more than
// MaxValues values make the variable unbounded, which also makes the
// fixpoint terminate. The result holds under every memory model and every
// interleaving: a value in a store buffer (a slot b_{p,i} or a last-write
// value lw_{p,x}) was assigned to its variable, so it lies in the
// variable's domain too. These variables are static.
//
// # Dynamic variables
//
// The analysis is flow-insensitive on shared variables, so a value chain
// through memory (x = r + 1 after r = x) makes x unbounded even when every
// loop is bounded by a counter and x holds a handful of values. A variable
// that is not static but deterministic (no havoc or nondeterministic
// initial value behind it) and that no process computes on a cycle of its
// skeleton (growth.go: its locations and static locals explored on their
// own, so that counter-bounded loops are not cycles; a counter in a
// `while (true)` loop is) and on which some guard depends (directly or
// through the values computed from it: a shared array that is written and
// never read only multiplies the states) is dynamic (dynamic.go): explicit,
// with a candidate domain that starts as its declared value. An explicit variable
// is static or dynamic, and gets its value from explicit ones only.
//
// A domain matters in one place only: an UPDATE-AM flush, which in the
// k-abstraction gives x any value (one of p's writes that the abstract
// tail forgot). For a dynamic x the state keeps a tail set T_{p,x}, a bit
// set over x's domain of the values p wrote into its tail since x entered
// S(p); UPDATE-AM branches over it, UPDATE-AS clears it. A tail write whose
// value is not in the domain has no bit: the exploration records the miss
// and is void. Info.Absorb adds every value the exploration saw outside
// the domains and says whether to explore again; only an exploration
// without a miss is sound, and only such an exploration may report that no
// bad state is reachable (cegar's reach checks exactly that). A domain
// that would pass MaxValues makes its variable unbounded again, with every
// variable computed from it: predicates take over, as for a variable the
// analysis found unbounded.
//
// # Forgotten values
//
// A deterministic variable that no guard depends on, directly or through
// the values computed from it (a shared counter incremented and never
// tested, and the temporary that carries it), decides no step and no bad
// state: when every other variable is explicit, its value is forgotten
// (forget.go): explicit with the domain {0}, every assignment to it, and
// to the buffer slot and last-write value of a write to it, assigning 0.
// Forgetting it is a bisimulation of everything but its value, so the
// explorations reach the same bad states; traces are replayed with
// concrete values. Before, such a counter kept the system out of the
// explicit exploration and in the order view.
//
// # Bounded buffers
//
// BufferBound (bufbound.go) walks the same skeletons (growth.go) for the
// most writes a store buffer can hold: along each path of a process's
// skeleton, the writes since its last fence or atomic step (per variable
// under PSO). Where every such count is bounded, that bound is a k under
// which the k-abstraction is the exact semantics; cegar takes it as the
// k of the proof (its climb of k), never as a proof itself.
//
// # The explicit-value domain
//
// A Layout gives each variable of X = X_S ∪ X_L ∪ X_B ∪ X_LW that can be
// finite a position in a value vector; Explicit says, per control state,
// which positions carry a value (a TSO buffer slot is explicit when the
// write it holds is to a finite variable). Compile turns a kabs transition
// between two control states into a Step that computes the new vector
// without a solver: assignments to explicit variables are evaluated
// (their operands are explicit, by the analysis), a guard over explicit
// variables only is evaluated, and an UPDATE-AM flush of an explicit x
// branches over x's domain (the flushed write is one of p's writes to x,
// whose values all lie there) or, for a dynamic x, over T_{p,x}. What a
// step leaves to the predicate domain (a guard or an assignment over
// unbounded variables) it says in GuardSymbolic and AssignsSymbolic; Env
// then gives the predicate domain the explicit values to substitute. This is predicate abstraction with the
// predicates x = c, evaluated without a solver.
//
// # Counter-like variables
//
// The variables of the counter-like classes of package
// ordview (only compared, copied, set to constants, moved by constants:
// Bakery's tickets, a ticket lock's counters) can be explicit too, with each
// state's values of a class canonicalised by their order (order.go,
// Info.UseOrderView): an exact finite view as long as every move is exact,
// which each step checks; a step that is not is widened (taken from every
// version of the state that the gaps it approaches may stand for), which
// keeps the view a simulation of the concrete system: no bad state
// reached is sound, and a counterexample found after a widened step is
// replayed with concrete values (NewConcreteLayout) before it is
// believed; one that does not replay makes the engine drop the view
// (DropDynamic) and explore again with predicates. Under TSO and PSO the
// buffer slots, last-write values and tail value sets T_{p,x} of class
// variables are class positions too (orderbuf.go, "Buffers").
package domains
