package cfront

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fencer/cs"
	"fencer/races"
	"fencer/readkit"
)

// This file connects the C reader to package races: the data-race check
// searches the SC runs of the file read under the AArch64 mapping, in
// which every access keeps its C11 order (an acquire read, a release
// write, a read-modify-write's order in its step), with what the
// translation noted of each access (plain or not) and of each
// atomic_thread_fence (its order, which the barrier it compiles to does
// not tell).

// orderAmbiguous is the order noted for fences of different orders at one
// position (a macro): they synchronise nothing in the race check.
const orderAmbiguous = -2

// noteFence records atomic_thread_fence(o) at pos for the race check.
func (t *translator) noteFence(pos cs.Pos, o int) {
	if old, ok := t.fenceOrders[pos]; ok && old != o {
		o = orderAmbiguous
	}
	t.fenceOrders[pos] = o
}

// noteCASFailure records the failure order o of the compare-and-swap at
// pos for the race check.
func (t *translator) noteCASFailure(pos cs.Pos, o int) {
	if old, ok := t.casFailure[pos]; ok && old != o {
		o = orderAmbiguous
	}
	t.casFailure[pos] = o
}

// RaceCheck is what Reader.Races found.
type RaceCheck struct {
	// Warnings holds one warning per race found, at its first access,
	// with Entries[i] its entry in the JSON report; or, when the runs
	// could not be searched, the warnings of the static check (every
	// plain variable two threads access, one writing), without entries.
	Warnings []Warning
	Entries  []races.Entry
	// Result is the search's, nil when it could not run.
	Result *races.Result
	// Note says what was checked, for the log (-v): the variables, the
	// states, and whether the search covered every run.
	Note string
}

// Races looks for the data races of the C file src: two conflicting
// accesses, one of them plain, that no happens-before orders in some run
// (package races). The file is read again under TargetARM, whatever
// r.Target: only there does every access keep its order. When that
// reading fails (an x86 asm fence, which AArch64 refuses), the check
// falls back on the static one and the Note says so.
func (r Reader) Races(ctx context.Context, filename string, src []byte, lim races.Limits) (*RaceCheck, error) {
	// The translation the command made (memoised) says whether any
	// variable can race; most programs have none, and need no second
	// reading.
	_, _, t0, err := r.read(filename, src)
	if err != nil {
		return nil, err
	}
	if !t0.mayRace() {
		return &RaceCheck{Note: noCandidate}, nil
	}
	arm := r
	arm.Target = TargetARM
	file, prog, t, err := arm.readOnce(filename, src)
	var sys *cs.System
	if err == nil {
		sys, err = readkit.LowerWith(file, prog, arm, cs.Options{})
	}
	if err != nil {
		return &RaceCheck{Warnings: t0.staticRaces, Note: fmt.Sprintf("data races: the runs were not searched (%v); warned of every plain variable that two threads access, one writing", firstLine(err))}, nil
	}
	res, err := races.Find(ctx, sys, t.raceOrders(sys), lim)
	if err != nil {
		return nil, err
	}
	names := t.cNames()
	name := func(v string) string {
		if n, ok := names[v]; ok {
			return n
		}
		return v
	}
	byName := t.byCSName()
	// One warning per C variable and pair of accesses: the elements of
	// an array that the same two statements race on are one race.
	type pair struct {
		v    *shvar
		a, b cs.Pos
	}
	shown := map[pair]bool{}
	rc := &RaceCheck{Result: res}
	for _, race := range res.Races {
		k := pair{byName[race.Var], min(race.First.Pos, race.Second.Pos), max(race.First.Pos, race.Second.Pos)}
		if k.v != nil && shown[k] {
			continue
		}
		shown[k] = true
		n := name(race.Var)
		rc.Warnings = append(rc.Warnings, Warning{Pos: sys.Position(race.First.Pos), Msg: race.Message(sys, n)})
		rc.Entries = append(rc.Entries, race.Entry(sys, n))
	}
	var vars []string
	for _, v := range res.Vars {
		vars = append(vars, name(v))
	}
	switch {
	case len(vars) == 0:
		rc.Note = noCandidate
	case len(res.Races) == len(res.Vars):
		rc.Note = fmt.Sprintf("data races: a race on each variable checked (%s), found in %d SC states", strings.Join(vars, ", "), res.States)
	case res.Complete:
		rc.Note = fmt.Sprintf("data races: searched every SC run (%d states) for races on %s: %d found", res.States, strings.Join(vars, ", "), len(rc.Warnings))
	default:
		rc.Note = fmt.Sprintf("data races: searched %d SC states for races on %s, not every run (%s): %d found; a variable without a warning may still race", res.States, strings.Join(vars, ", "), res.Why, len(rc.Warnings))
	}
	return rc, nil
}

// noCandidate is the note of a program that cannot race.
const noCandidate = "data races: no plain variable that two processes access, one writing: nothing to search"

// mayRace reports whether some shared variable has a plain access (outside
// an atomic block), is accessed by two processes (main included, whatever
// the order of the access) and is written by one: the variables the race
// check tracks (races.Find) are among these.
func (t *translator) mayRace() bool {
	for _, v := range t.order {
		if v.plainAny && v.writeAny && len(v.accessors) >= 2 {
			return true
		}
	}
	return false
}

// firstLine is the first line of err's message.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// raceOrders gives the race check the order of each access and fence of
// sys, a system of t read under TargetARM.
func (t *translator) raceOrders(sys *cs.System) races.Orders {
	byName := t.byCSName()
	return func(p, e int) races.Order {
		edge := sys.Procs[p].Edges[e]
		switch edge.Op.Kind {
		case cs.OpRead, cs.OpWrite:
			a := t.accesses[accessKey{edge.Pos, edge.Op.Kind == cs.OpWrite}]
			switch {
			case a == nil:
				// Not noted (no position in the file): by its variable,
				// and synchronising nothing.
				switch v := byName[edge.Op.Shared]; {
				case v == nil || !v.atomic && !v.volatile && !v.mutex:
					return races.Plain
				case v.volatile && !v.atomic:
					return races.Volatile
				}
				return races.Relaxed
			case a.plain:
				return races.Plain
			case a.ambiguous:
				// Atomic or volatile accesses of different orders at one
				// place (a macro): none of them synchronises.
				return races.Volatile
			}
			return raceOrder(a.order)
		case cs.OpAtomic:
			if fail, ok := t.casFailure[edge.Pos]; ok && !writes(edge.Op) {
				// A failed compare-and-swap: a read of the failure
				// order.
				return raceOrder(fail)
			}
			return races.OfAnn(edge.Op.Ann)
		case cs.OpFence:
			if o, ok := t.fenceOrders[edge.Pos]; ok {
				return raceOrder(o)
			}
			// An asm barrier.
			switch edge.Op.Fence {
			case cs.FullFence:
				return races.SeqCst
			case cs.LoadFence:
				return races.Acquire
			}
		}
		return races.Relaxed
	}
}

// writes reports whether the atomic step op writes shared memory.
func writes(op cs.Op) bool {
	for _, b := range op.Body {
		if b.Kind == cs.OpWrite {
			return true
		}
	}
	return false
}

// raceOrder is the race check's order of a C11 memory order of an atomic
// access or fence (orderPlain: a volatile access).
func raceOrder(o int) races.Order {
	switch o {
	case orderPlain:
		return races.Volatile
	case orderConsume, orderAcquire:
		return races.Acquire
	case orderRelease:
		return races.Release
	case orderAcqRel:
		return races.AcqRel
	case orderSeqCst:
		return races.SeqCst
	}
	return races.Relaxed
}

// csNames are the names of the shared variables of the .cs program that
// v is: itself, or its elements.
func csNames(v *shvar) []string {
	if v.size < 0 {
		return []string{v.name}
	}
	var out []string
	for k := 0; k < v.size; k++ {
		if v.split() {
			out = append(out, v.elemName(k))
		} else {
			out = append(out, v.name+"["+strconv.Itoa(k)+"]")
		}
	}
	return out
}

// byCSName maps the shared variables of the .cs program to the C
// variables they are (or are elements or fields of).
func (t *translator) byCSName() map[string]*shvar {
	m := map[string]*shvar{}
	for _, v := range t.order {
		for _, n := range csNames(v) {
			m[n] = v
		}
	}
	return m
}

// cNames maps the shared variables of the .cs program to their C
// spelling: "s.f", "a[2]".
func (t *translator) cNames() map[string]string {
	m := map[string]string{}
	for _, v := range t.order {
		ns := csNames(v)
		if v.size < 0 {
			m[ns[0]] = v.cname
			continue
		}
		for k, n := range ns {
			m[n] = v.cname + "[" + strconv.Itoa(k) + "]"
		}
	}
	return m
}
