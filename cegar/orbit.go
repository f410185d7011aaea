package cegar

import (
	"maps"

	"fencer/cs"
	"fencer/expr"
)

// This file finds, by an analysis of a cs.System, a set of its
// automorphisms: permutations π of the processes, each with a renaming σ
// of the variables (shared variables onto shared variables, the locals of
// process a onto those of π(a)) and a map of the fence sites, such that
//
//   - the automaton of each process a, its variables renamed by σ and its
//     fence points by the site map, is the automaton of π(a): the same
//     number of locations, and edge i of a goes between the same
//     locations as edge i of π(a) with the same operation (kind, fence
//     kind, constants, expression shape) up to the renaming;
//   - σ is a bijection that keeps every initial value (shared and local);
//   - the bad states are invariant: each forbidden combination (a mutex
//     declaration is its pairs) maps onto one, and a process's assert sink
//     is at the same location as its image's.
//
// Such a pair (π, σ) maps every run of the system onto a run (a state, its
// buffers included, is renamed position by position; each step of process
// a by edge i becomes the step of π(a) by edge i), and bad states onto bad
// states. Nothing is assumed of the names: two instances of one template
// that index only by i or (i+k)%N, or processes written out one by one
// (an n-thread litmus test, a .rmm or C file) are found alike, and a
// process that differs by a constant, an index comparison i < j (which
// lowers to different constants in each instance), an initial value or a
// bad state breaks the map.
//
// The search assigns π(0), π(1), ... in turn among the processes with the
// same shape, unifying the operations edge by edge (the renaming is built
// as it goes and must stay injective), so a wrong choice fails at its
// first operation. Every permutation is searched up to maxGroupSearch
// complete automorphisms; past that (a template of many instances that
// uses no order of its indices: n! elements) only the rotations of the
// process order are kept, a subgroup.

// maxGroup bounds the automorphisms kept from the full search (4! for a
// symmetric template of four); beyond it only the rotations are used.
const maxGroup = 24

// maxSearch bounds the pairs of processes the full search unifies; past
// it the search falls back to the rotations too.
const maxSearch = 20000

// auto is one automorphism of a system: proc[a] = π(a), shared[x] = σ(x)
// over the indices of System.Shared, vars the renaming of every variable
// by name (shared and local), sites the map of the fence sites (indices of
// System.Sites) that the processes pass.
type auto struct {
	proc   []int
	shared []int
	vars   map[string]string
	sites  map[int]int
}

// group is a set of automorphisms of one system, the identity not
// included; nil or empty when none was found.
type group struct {
	sys    *cs.System
	elems  []*auto
	byName map[string]int // process index by name (procIndex)
}

// findGroup returns the automorphisms of sys (the identity left out), or
// nil when there is none but the identity.
func findGroup(sys *cs.System) *group {
	n := len(sys.Procs)
	if n < 2 {
		return nil
	}
	s := newAutoSearch(sys)
	s.limit, s.budget = maxGroup+1, maxSearch
	s.run(nil)
	if len(s.found) > maxGroup || s.budget <= 0 {
		s.found = nil
		for r := 1; r < n; r++ {
			p := make([]int, n)
			for i := range p {
				p[i] = (i + r) % n
			}
			s.limit, s.budget = len(s.found)+1, maxSearch
			s.run(p)
		}
	}
	if len(s.found) == 0 {
		return nil
	}
	return &group{sys: sys, elems: s.found}
}

// autoSearch is the backtracking search of findGroup.
type autoSearch struct {
	sys    *cs.System
	shared map[string]int // index in sys.Shared by name
	found  []*auto
	limit  int // stop after this many
	budget int // unifications of two processes left
	fixed  []int
}

func newAutoSearch(sys *cs.System) *autoSearch {
	s := &autoSearch{sys: sys, shared: map[string]int{}}
	for i, d := range sys.Shared {
		s.shared[d.Name] = i
	}
	return s
}

// unifier is a partial renaming, copied at each choice of the search:
// of variables (vars, with its inverse back) and of fence sites.
type unifier struct {
	vars, back   map[string]string
	sites, sback map[int]int
}

func newUnifier() *unifier {
	return &unifier{vars: map[string]string{}, back: map[string]string{}, sites: map[int]int{}, sback: map[int]int{}}
}

func (u *unifier) clone() *unifier {
	return &unifier{vars: maps.Clone(u.vars), back: maps.Clone(u.back), sites: maps.Clone(u.sites), sback: maps.Clone(u.sback)}
}

// name maps a to b, or reports that a or b is already mapped elsewhere.
func (u *unifier) name(a, b string) bool { return pair(u.vars, u.back, a, b) }

// site maps fence site a to b, or reports that a or b is already mapped
// elsewhere.
func (u *unifier) site(a, b int) bool { return pair(u.sites, u.sback, a, b) }

// pair adds a ↦ b to the injective map fwd with inverse back, unless a or b
// is already mapped elsewhere (then it reports false).
func pair[T comparable](fwd, back map[T]T, a, b T) bool {
	if m, ok := fwd[a]; ok {
		return m == b
	}
	if m, ok := back[b]; ok {
		return m == a
	}
	fwd[a], back[b] = b, a
	return true
}

// run searches the permutations (only the one given, when fixed is not
// nil) and appends the automorphisms to s.found, up to s.limit.
func (s *autoSearch) run(fixed []int) {
	n := len(s.sys.Procs)
	s.fixed = fixed
	perm := make([]int, n)
	used := make([]bool, n)
	var rec func(a int, u *unifier)
	rec = func(a int, u *unifier) {
		if len(s.found) >= s.limit || s.budget <= 0 {
			return
		}
		if a == n {
			if g := s.complete(perm, u); g != nil {
				s.found = append(s.found, g)
			}
			return
		}
		for b := 0; b < n; b++ {
			if used[b] || fixed != nil && fixed[a] != b {
				continue
			}
			s.budget--
			v := u.clone()
			if !s.procs(a, b, v) {
				continue
			}
			used[b], perm[a] = true, b
			rec(a+1, v)
			used[b] = false
		}
	}
	rec(0, newUnifier())
}

// procs unifies the automaton of process a with that of b.
func (s *autoSearch) procs(a, b int, u *unifier) bool {
	p, q := s.sys.Procs[a], s.sys.Procs[b]
	if p.NumLocs != q.NumLocs || len(p.Edges) != len(q.Edges) || len(p.Locals) != len(q.Locals) || p.ErrLoc != q.ErrLoc {
		return false
	}
	for i := range p.Edges {
		e, f := &p.Edges[i], &q.Edges[i]
		if e.From != f.From || e.To != f.To || len(e.Points) != len(f.Points) || !s.op(e.Op, f.Op, u) {
			return false
		}
		for j := range e.Points {
			if !u.site(e.Points[j], f.Points[j]) {
				return false
			}
		}
	}
	return true
}

func (s *autoSearch) op(a, b cs.Op, u *unifier) bool {
	if a.Kind != b.Kind || a.Fence != b.Fence || len(a.Body) != len(b.Body) || (a.Val == nil) != (b.Val == nil) {
		return false
	}
	if !s.varName(a.Local, b.Local, u) || !s.varName(a.Shared, b.Shared, u) {
		return false
	}
	if a.Val != nil && !s.expr(a.Val, b.Val, u) {
		return false
	}
	for i := range a.Body {
		if !s.op(a.Body[i], b.Body[i], u) {
			return false
		}
	}
	return true
}

// varName unifies two variable names: both empty, or both shared, or both
// local.
func (s *autoSearch) varName(a, b string, u *unifier) bool {
	if a == "" || b == "" {
		return a == b
	}
	_, sa := s.shared[a]
	_, sb := s.shared[b]
	return sa == sb && u.name(a, b)
}

func (s *autoSearch) expr(a, b expr.Expr, u *unifier) bool {
	switch x := a.(type) {
	case expr.Int:
		y, ok := b.(expr.Int)
		return ok && x == y
	case expr.Bool:
		y, ok := b.(expr.Bool)
		return ok && x == y
	case expr.Var:
		y, ok := b.(expr.Var)
		return ok && s.varName(x.Name, y.Name, u)
	case *expr.App:
		y, ok := b.(*expr.App)
		if !ok || x.Op != y.Op || len(x.Args) != len(y.Args) {
			return false
		}
		for i := range x.Args {
			if !s.expr(x.Args[i], y.Args[i], u) {
				return false
			}
		}
		return true
	}
	return false
}

// complete checks what the edges do not: initial values, the locals no
// operation mentions, the shared variables none mentions (fixed), and the
// bad states; it returns the automorphism, or nil for the identity or a
// failed check.
func (s *autoSearch) complete(perm []int, u *unifier) *auto {
	sys := s.sys
	identity := true
	for a, b := range perm {
		identity = identity && a == b
	}
	if identity {
		return nil
	}
	u = u.clone()
	g := &auto{proc: append([]int(nil), perm...), shared: make([]int, len(sys.Shared)), vars: u.vars, sites: u.sites}
	for i, d := range sys.Shared {
		m, ok := u.vars[d.Name]
		if !ok {
			if !u.name(d.Name, d.Name) {
				return nil
			}
			m = d.Name
		}
		j := s.shared[m]
		if sys.Shared[j].Init != d.Init {
			return nil
		}
		g.shared[i] = j
	}
	for a, p := range sys.Procs {
		q := sys.Procs[perm[a]]
		var freeP, freeQ []cs.VarDecl
		for _, l := range p.Locals {
			if _, ok := u.vars[l.Name]; !ok {
				freeP = append(freeP, l)
			}
		}
		for _, l := range q.Locals {
			if _, ok := u.back[l.Name]; !ok {
				freeQ = append(freeQ, l)
			}
		}
		if len(freeP) != len(freeQ) {
			return nil
		}
		for i := range freeP {
			if !u.name(freeP[i].Name, freeQ[i].Name) {
				return nil
			}
		}
		init := map[string]cs.Init{}
		for _, l := range q.Locals {
			init[l.Name] = l.Init
		}
		for _, l := range p.Locals {
			if m, ok := init[u.vars[l.Name]]; !ok || m != l.Init {
				return nil
			}
		}
	}
	if !s.badInvariant(perm) {
		return nil
	}
	return g
}

// badInvariant reports whether perm maps every forbidden combination onto
// one of the system's.
func (s *autoSearch) badInvariant(perm []int) bool {
	key := func(procs []int, locs []cs.Loc) map[int]cs.Loc {
		m := make(map[int]cs.Loc, len(procs))
		for i, p := range procs {
			m[p] = locs[i]
		}
		return m
	}
	bads := make([]map[int]cs.Loc, len(s.sys.Bad))
	for i, b := range s.sys.Bad {
		bads[i] = key(b.Procs, b.Locs)
	}
	for _, b := range s.sys.Bad {
		img := make(map[int]cs.Loc, len(b.Procs))
		for i, p := range b.Procs {
			img[perm[p]] = b.Locs[i]
		}
		found := false
		for _, c := range bads {
			if sameBad(img, c) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func sameBad(a, b map[int]cs.Loc) bool {
	if len(a) != len(b) {
		return false
	}
	for p, l := range a {
		if m, ok := b[p]; !ok || m != l {
			return false
		}
	}
	return true
}

// badWithPrefix reports whether a state in which only the first m
// processes have moved can be bad: one of them has an assert, or some
// forbidden combination asks of the others only their initial location 0.
// When it cannot, reachParts' explorations with m processes would find
// nothing (the n-thread store-buffering ring needs every thread at its
// outcome).
func badWithPrefix(sys *cs.System, m int) bool {
	for p := 0; p < m && p < len(sys.Procs); p++ {
		if sys.Procs[p].ErrLoc >= 0 {
			return true
		}
	}
	for _, b := range sys.Bad {
		ok := true
		for i, p := range b.Procs {
			if p >= m && b.Locs[i] != 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
