package predabs

import (
	"sort"
	"strings"
	"sync"

	"fencer/expr"
)

// A post asks, for each predicate p it must decide, whether pre ∧ ¬wp(p)
// and pre ∧ wp(p) are satisfiable, where pre is the cube before the step
// and the guard. Most conjuncts of pre share no variable with wp(p): they
// cannot change the answer once pre is satisfiable. So each query goes to
// the solver with only its slice, the conjuncts of pre connected to wp(p)
// through shared variables (transitively), and its answer is memoised under
// the text of that slice and of wp(p). The memo is about formulas, not
// about predicate indices or control states: it stays valid when
// predicates are added, across explorations, k and fence rounds, and
// systems, so a re-exploration after a refinement asks the solver only
// about what is new.
//
// If pre is unsatisfiable the answers on slices may differ from those on
// pre; any answer is then sound, since no concrete state is in pre.

// slicer splits a conjunction into the components of its conjuncts that
// share variables.
type slicer struct {
	conj    []expr.Expr
	keys    []string
	comp    []int          // component (a representative conjunct) per conjunct
	ofVar   map[string]int // variable → a conjunct that mentions it
	compKey map[int]string // component → key, computed on demand
	parent  []int
	// one memoises slice for a single component (the common case):
	// its conjuncts and key.
	one map[int]sliceResult
}

type sliceResult struct {
	conj []expr.Expr
	key  string
}

// conjunctInfo is what the slicer needs of a conjunct: its text and its
// variables. The literals of cubes are the same terms post after post
// (Cube.formula, Pred.Not), so it is memoised by term.
type conjunctInfo struct {
	key  string
	vars []string
}

// conjunctMemo holds conjunctInfo by the identity of compound terms.
type conjunctMemo map[*expr.App]conjunctInfo

const conjunctMemoLimit = 1 << 16

func (m conjunctMemo) info(e expr.Expr) conjunctInfo {
	a, ok := e.(*expr.App)
	if !ok || m == nil {
		return conjunctInfo{expr.Key(e), expr.Vars(e)}
	}
	if in, ok := m[a]; ok {
		return in
	}
	in := conjunctInfo{expr.Key(e), expr.Vars(e)}
	if len(m) >= conjunctMemoLimit {
		clear(m)
	}
	m[a] = in
	return in
}

func newSlicer(pre expr.Expr, memo conjunctMemo) *slicer {
	s := &slicer{ofVar: map[string]int{}, compKey: map[int]string{}}
	s.conj = expr.Conjuncts(pre)
	s.parent = make([]int, len(s.conj))
	s.keys = make([]string, len(s.conj))
	for i, c := range s.conj {
		s.parent[i] = i
		in := memo.info(c)
		s.keys[i] = in.key
		for _, v := range in.vars {
			if j, ok := s.ofVar[v]; ok {
				s.union(i, j)
			} else {
				s.ofVar[v] = i
			}
		}
	}
	s.comp = make([]int, len(s.conj))
	for i := range s.conj {
		s.comp[i] = s.find(i)
	}
	return s
}

func (s *slicer) find(i int) int {
	for s.parent[i] != i {
		s.parent[i] = s.parent[s.parent[i]]
		i = s.parent[i]
	}
	return i
}

func (s *slicer) union(i, j int) {
	if a, b := s.find(i), s.find(j); a != b {
		s.parent[a] = b
	}
}

// key returns the text of component c (its conjuncts' keys, sorted).
func (s *slicer) key(c int) string {
	if k, ok := s.compKey[c]; ok {
		return k
	}
	var ks []string
	for i := range s.conj {
		if s.comp[i] == c {
			ks = append(ks, s.keys[i])
		}
	}
	sort.Strings(ks)
	k := strings.Join(ks, "\x01")
	s.compKey[c] = k
	return k
}

// components returns the components that f's variables meet, sorted.
func (s *slicer) components(f expr.Expr) []int {
	var cs []int
	for _, v := range expr.Vars(f) {
		if j, ok := s.ofVar[v]; ok {
			c := s.comp[j]
			dup := false
			for _, d := range cs {
				if d == c {
					dup = true
					break
				}
			}
			if !dup {
				cs = append(cs, c)
			}
		}
	}
	sort.Ints(cs)
	return cs
}

// slice returns the conjuncts of the components cs and their key.
func (s *slicer) slice(cs []int) ([]expr.Expr, string) {
	if len(cs) == 1 {
		if r, ok := s.one[cs[0]]; ok {
			return r.conj, r.key
		}
		conj, key := s.build(cs)
		if s.one == nil {
			s.one = map[int]sliceResult{}
		}
		s.one[cs[0]] = sliceResult{conj, key}
		return conj, key
	}
	return s.build(cs)
}

func (s *slicer) build(cs []int) ([]expr.Expr, string) {
	var out []expr.Expr
	var b strings.Builder
	for _, c := range cs {
		for i := range s.conj {
			if s.comp[i] == c {
				out = append(out, s.conj[i])
			}
		}
		b.WriteString(s.key(c))
		b.WriteByte('\x02')
	}
	return out, b.String()
}

// decisions memoises the answers of the solver on sliced queries.
// The slice's key is stored once for all the predicates decided under it.
type decisions struct {
	mu    sync.Mutex                 // forked abstractors share it (Fork)
	lits  map[string]map[string]int8 // slice → wp → +1, -1, 0
	sat   map[string]bool            // a component → satisfiable
	n     int                        // entries
	limit int
}

func newDecisions(limit int) *decisions {
	return &decisions{lits: map[string]map[string]int8{}, sat: map[string]bool{}, limit: limit}
}

func (d *decisions) lookup(slice, wp string) (int8, bool) {
	d.mu.Lock()
	v, ok := d.lits[slice][wp]
	d.mu.Unlock()
	return v, ok
}

func (d *decisions) lookupSat(comp string) (bool, bool) {
	d.mu.Lock()
	v, ok := d.sat[comp]
	d.mu.Unlock()
	return v, ok
}

func (d *decisions) store(slice, wp string, v int8) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.grow()
	m := d.lits[slice]
	if m == nil {
		m = map[string]int8{}
		d.lits[slice] = m
	}
	m[wp] = v
}

func (d *decisions) storeSat(comp string, sat bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.grow()
	d.sat[comp] = sat
}

// grow counts one more entry, emptying the memo when it is full (with mu
// held).
func (d *decisions) grow() {
	if d.n >= d.limit {
		d.lits = map[string]map[string]int8{}
		d.sat = map[string]bool{}
		d.n = 0
	}
	d.n++
}
