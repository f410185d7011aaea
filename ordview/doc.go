// Package ordview finds the counter-like data of a concurrent system and
// gives an exact finite view of it: values that are only compared, copied,
// set to constants and moved by constants matter only through their order,
// their small differences and their position relative to the constants.
//
// # The analysis (analyze.go)
//
// Analyze links every shared variable, and every web of a local (its
// definitions and the uses they reach, reach.go: the front end reuses its
// temporaries $0, $1, ... in every statement, and a web keeps their
// unrelated uses apart), to what it is copied from (a read, x = y), moved
// from (x = y + k, k a constant) and compared with (x + k ⋈ y + l, ⋈ one of
// == != < <= > >=). A connected group is a class unless one member is used
// in any other way: a havoc or a nondeterministic initial value, an
// operand of anything but y + k or such a comparison (x + y, 2 * x, x % 3,
// a comparison of x + y with anything). A comparison used as a value
// (b = x < y, an ite) gives its target 0 or 1, constants: the target is
// not linked to x and y. The buffer slots and last-write values of a
// shared variable hold values written to it, so they belong to its class,
// under every memory model.
//
// Per class it records the anchors K (every constant a member starts at,
// is set to or is compared with), the largest increment Up and decrement
// Down, and the largest offset E of a comparison between two members (x ⋈
// y + e, |e| <= E). The hull is H = [min K - Down, max K + Up]; the cap is
// C = E + max(Up, Down) + 1 (any C > E is sound; see below).
//
// # The view (canon.go)
//
// The values of a class in a state are those of its positions: shared
// variables, live locals in the class at their process's location (Local),
// and buffer entries of its shared variables. Canon maps them by the
// order-preserving map f that is the identity on H and, outside H, puts
// consecutive distinct values at their distance cut to C: above H, from
// max H upwards; below, from min H downwards. f depends only on which
// differences are below C, so two states have the same canonical form iff
// they are C-equivalent: equal outside the class, equal inside H, and
// related by an order-isomorphism h of their class values, the identity
// on H, such that for any two values u, v either h(v) - h(u) = v - u or
// both |v - u| >= C and |h(v) - h(u)| >= C. (A difference below C is a
// sum of gaps below C, so it is kept; a difference of C or more spans a
// gap of C or more, which stays C or more.)
//
// # Why the view is exact
//
// Let σ and τ be C-equivalent through h. Every operation of a class
// member, taken by the same process at the same location in both, gives
// C-equivalent successors, with the same guards deciding the same way:
//
//   - x ⋈ y + e with |e| <= E < C: if y - x is kept by h, the comparison
//     has the same value; otherwise |y - x| >= C > |e| in both, with the
//     same sign (h preserves order), so both decide it the same way.
//   - x ⋈ c for an anchor c: c is in H, where h is the identity, so this is
//     the case above with y = c, e = 0. (x + k ⋈ c is x ⋈ c - k, and c - k
//     is the anchor recorded.)
//   - x = c (c an anchor), x = y, a read, a write, a flush: the new value
//     is an existing value or a point of H; the set of values only loses
//     the overwritten one, and a subset of C-equivalent values is
//     C-equivalent.
//   - x = y + k: the new value is w = y + k. For a value u with y - u
//     kept, w - u is kept. For u across a difference of C or more from y on the
//     side away from k, |w - u| grows, still >= C in both. What can break
//     is u on the side of k beyond a cut gap: in τ the new difference may
//     be below C while in σ it is not. Exact(vals, y, k) checks, on the
//     canonical values, that the nearest value beyond the first cut gap in
//     the direction of k stays at least C from w; since canonical
//     differences are the smallest in the class (f only shrinks gaps),
//     the difference stays >= C in every σ of the class. When y is in H
//     and w in H (the hull includes max K + Up), the step is always exact.
//
// Data outside the class is equal in σ and τ and is not touched by class
// values (nothing else flows in or out). So the relation "same canonical
// form" is a bisimulation of the explored system as long as every move
// taken from a reachable canonical state is Exact: bad states (which are
// control states) are reached in the view iff they are reached
// concretely, and the canonical states reached are exactly the canonical
// forms of the concrete reachable states (TestViewAgainstConcrete checks
// both against an explicit interpreter, and that interpreter against
// package refsem, on generated programs under SC and TSO).
//
// # Steps that are not exact
//
// Cutting gaps is not exact for every program of this form, and cannot
// be: x = x + 1, x = x - 1 and x == 0 make a Minsky counter machine, whose
// reachability is undecidable, so no finite exact view exists for all such
// programs. Exact is the dynamic condition that makes it exact. Where it
// fails there are two ways on:
//
//   - void the exploration (as a dynamic-domain miss does, domains/doc.go)
//     and run it again with a larger cap (any C > E is sound; a larger C
//     keeps more gaps and makes more steps exact) or without the view;
//   - or widen (Widen): the cut gap the move approaches is C in the
//     canonical state but C + s in the concrete states of the class, for
//     some s >= 0; Widen returns one version of the state per s up to the
//     one from which the moved value stays C away (larger s give the same
//     canonical successor), each with the values beyond the gap (on the
//     side away from the hull) moved by s. A concrete state with gap C + s
//     agrees with version s on that gap exactly and is C-equivalent to it
//     elsewhere, so its successor has the canonical form of the step from
//     version s: the view with widening simulates the concrete system
//     (TestWidenSimulates). It is then an over-approximation: a bad state
//     it reaches must be confirmed by a concrete replay, as every abstract
//     counterexample of the engine already is; "no bad state" is sound.
//
// Measured with the test's interpreter: the ticket lock (N = 2 and 3, SC
// and TSO) and the 2-process Bakery under SC are explored to the end with
// no rejected step; in 3-process Bakery under SC a process takes max + 1
// of the numbers it read while a larger unread number is across a cut
// gap, which Exact rejects at caps 2 to 5 (the gaps between live tickets
// are not bounded there), and which Widen covers.
//
// # How the explorer uses it
//
// Package domains (domains/order.go) wires the view into the explicit-value
// domain of the engine's explorer, under SC, TSO and PSO:
// the classes are merged by variable name, so that each position of the
// value vector is in one class at every control state (a set of variables
// closed under the links above is a class too), with the hull widened to
// contain 0, the value of a dead local; the view is used only when it makes
// every variable of the system explicit (a predicate over canonical values
// would be wrong), and never for a name with a web in no class (Rejected).
// Each transition is checked once: its comparisons over class values must
// be x + k ⋈ y + l with |l - k| < Cap or x + k ⋈ c with c - k in the hull,
// its assignments to class variables constants of the hull or y + k. Each
// step checks its moves with Exact (the parallel assignment of an atomic
// block taken as moves to fresh temporaries, one at a time) and
// canonicalises the successor with Canon. A step that is not exact is
// widened: the moves are taken again, in order, from every version Widen
// gives for the cut gap each approaches (the versions are not
// canonicalised between the moves of one step, so a gap widened for one
// move is still wide for the next: each version's differences are those
// of the concrete states it stands for, or both at least C on the same
// side with the concrete one the larger, and Exact and Widen on such a vector are as sound as on a
// canonical one), and the step's assignments are evaluated on each
// version and canonicalised. The explored system then simulates the
// concrete one: "no bad state" is sound. Its counterexamples are
// schedules of the k-abstraction's steps; one found after a step was
// widened is applied again with concrete values (the explicit-value
// domain without canonical forms) before the engine sees it: if it is not
// enabled there it went through a version that no concrete state has, and
// the view is dropped for good and the exploration run again with the
// counters left to predicates; if it is, it is classified as any other
// (cegar/ordview.go). Under TSO and PSO the buffer slots and last-write
// values of class variables are class positions, the k-abstraction's
// UPDATE-AM flush of x takes a value of the set of values p wrote into
// its tail since x entered S(p), kept as class positions of its own with a
// capacity that grows between explorations, and under TSO the classes of
// the variables a process writes are merged so that its slots are in one
// class (domains/orderbuf.go, "Buffers", argues that this adds no operation
// but copies, so that the argument above holds for the k-abstraction).
package ordview
