package cegar

import (
	"slices"
	"sort"

	"fencer/cs"
	"fencer/fences"
	"fencer/memmodel"
)

// Known is what a run that stopped early (verdict Unknown) proved before
// it stopped, and where it stopped. Each fact is about a part of the
// program's runs (SCCorrect: about its runs under SC); none is about the
// program under the run's model as a whole, which is not verified.
type Known struct {
	// SCCorrect is set when Insert's SC check ended with no bad state
	// reachable under SC (the phases after it).
	SCCorrect bool
	// Clean lists the parts of the runs in which an exploration went to
	// its end and found no bad state, the weakest implied ones left out
	// (a part inside another listed one): reach.go, reachParts. The
	// abstraction explored over-approximates the runs of the part, so no
	// run of the part reaches a bad state.
	Clean []Explored
	// Stopped is the exploration that the limit stopped: the part it was
	// exploring and the states it had stored; nil when the run stopped
	// outside an exploration (classifying or refining a counterexample).
	Stopped *Explored
}

// Part names a set of runs of the program under Model: those in which
// only Processes move (the others stay at their initial locations with
// empty buffers; nil: every process moves) and, when MaxBuffered > 0, no
// store buffer (under PSO: the buffer of a variable) ever holds more than
// MaxBuffered writes. Fenced: of the program with the fences of
// Result.Partial installed (each a fence that only takes runs away, so a
// part found free of bad states with some of them is free with all);
// else of the program as written.
type Part struct {
	Model       memmodel.Model
	Processes   []string
	MaxBuffered int
	Fenced      bool
}

// Explored is a part of the runs and the abstract states an exploration
// of it stored.
type Explored struct {
	Part
	States int
}

// exploredRun is what the engine notes of each exploration as it ends
// (noteExplored): the part of the graph, the k and the states stored.
type exploredRun struct {
	part
	k      int
	states int
}

// noteExplored records, as the exploration x ends with states stored,
// the part it kept to and whether a tail write had no place in its
// domains (domains.Layout.Missed: then the exploration missed runs, and
// its "no bad state" proves nothing; reach does not use it as a proof
// either, but reachParts records such a part clean as a hint).
func (e *engine) noteExplored(x *explorer, states int) {
	if x.lay.Missed() {
		e.missed = true
	}
	e.lastRun = &exploredRun{part: part{active: x.active, exactOnly: x.exactOnly}, k: x.abs.K, states: states}
}

// known is what the engine proved on sys before its loop stopped with
// outcome o, with the fence set fenced (that of Result.Partial) as the
// one the facts may assume installed.
func (e *engine) known(sys *cs.System, o *outcome, fenced []fences.Element) *Known {
	k := &Known{}
	for _, c := range e.clean {
		if x, ok := e.cleanFact(sys, c, fenced); ok {
			k.Clean = append(k.Clean, x)
		}
	}
	k.Clean = strongest(k.Clean)
	if r := e.lastRun; o.stoppedInSearch && r != nil && r.states > 0 && r.states == e.last.states {
		x := e.explored(sys, r.part, r.k, len(e.prec.Fences) > 0, r.states)
		k.Stopped = &x
	}
	return k
}

// cleanFact is the fact that the clean part c proves about sys with the
// fences fenced installed: none when c was explored with a fence outside
// fenced, or when it used tails and some exploration of the engine
// missed a tail write (noteExplored; an exact-only part writes no tail,
// so it cannot miss one).
func (e *engine) cleanFact(sys *cs.System, c cleanPart, fenced []fences.Element) (Explored, bool) {
	if !fences.Subset(c.fences, fenced) {
		return Explored{}, false
	}
	if !c.exactOnly && e.missed {
		return Explored{}, false
	}
	return e.explored(sys, c.part, c.k, len(c.fences) > 0, c.run.states), true
}

// explored is the Explored of the part pt of sys's graph under the
// engine's model and k.
func (e *engine) explored(sys *cs.System, pt part, k int, fenced bool, states int) Explored {
	x := Explored{Part: Part{Model: e.opt.Model, Fenced: fenced}, States: states}
	if pt.active > 0 {
		for _, p := range sys.Procs[:pt.active] {
			x.Processes = append(x.Processes, p.Name)
		}
	}
	if pt.exactOnly {
		x.MaxBuffered = k
	}
	return x
}

// strongest drops from xs each part that another one contains (more
// processes moving, a larger bound on the buffers or none, the program
// as written rather than fenced), keeping the first of equal ones, and
// orders the rest by the processes that move, all last.
func strongest(xs []Explored) []Explored {
	var out []Explored
	for i, x := range xs {
		implied := false
		for j, y := range xs {
			if i != j && partContains(y.Part, x.Part) && (!partContains(x.Part, y.Part) || j < i) {
				implied = true
				break
			}
		}
		if !implied {
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return moving(out[i].Part) < moving(out[j].Part) })
	return out
}

// partContains reports whether every run of part b is a run of part a (both
// of one system under one model).
func partContains(a, b Part) bool {
	procs := a.Processes == nil || b.Processes != nil && len(a.Processes) >= len(b.Processes) && slices.Equal(a.Processes[:len(b.Processes)], b.Processes)
	bufs := a.MaxBuffered == 0 || b.MaxBuffered != 0 && a.MaxBuffered >= b.MaxBuffered
	return procs && bufs && (!a.Fenced || b.Fenced)
}

// moving is the number of processes that move in p, all of them last.
func moving(p Part) int {
	if p.Processes == nil {
		return int(^uint(0) >> 1)
	}
	return len(p.Processes)
}
