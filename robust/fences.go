package robust

import (
	"errors"
	"sort"

	"fencer/cs"
	"fencer/fences"
)

// MaxFenceNodes bounds the nodes of the exact search for a minimum fence
// set. Past it, MinFences returns a fence set that makes the program robust
// but is not proved minimum (Minimal false).
const MaxFenceNodes = 200_000

// FenceSet is the answer of MinFences.
type FenceSet struct {
	Sites []int // site IDs (System.Sites) of its full fences (under a model with Axioms: of its fences, of the kinds of Kinds), sorted
	// Store holds the sites of the store fences a required set of
	// MinFencesWith made it take (a store fence cuts no critical pair),
	// sorted; nil from MinFences.
	Store []int
	// Kinds is, under a model with Axioms, the kind of the fence at each
	// site of Sites: the cheapest barrier of the model (memmodel.Barriers,
	// by Cost) that keeps the pair of kinds of every relaxed pair a free
	// path of which passes the site; nil under the store-buffer models,
	// whose Sites are full fences.
	Kinds   map[int]cs.FenceKind
	Minimal bool // proved the fewest fences that make the program robust
	Nodes   int  // nodes of the search
}

// Elements is the fence set as fence elements, sorted (fences.Compare).
func (fs *FenceSet) Elements() []fences.Element {
	var out []fences.Element
	if fs.Kinds != nil {
		for _, s := range fs.Sites {
			out = append(out, fences.Element{Site: s, Kind: fs.Kinds[s]})
		}
		return out
	}
	for _, s := range fs.Sites {
		out = append(out, fences.Element{Site: s, Kind: cs.FullFence})
	}
	for _, s := range fs.Store {
		out = append(out, fences.Element{Site: s, Kind: cs.StoreFence})
	}
	return out
}

// ErrUncuttable is returned when a critical pair has a path with no fence
// site on it (it cannot happen for programs from the parser, where every
// buffered write is a site).
var ErrUncuttable = errors.New("a critical pair of accesses has no fence site between them")

// MinFences returns a minimum set of fence sites whose fences make the
// program robust: every critical pair must be cut, that is every path from
// its write to its second access must pass a fence. The cycles do not depend
// on fences (a fence is not an access), so this is exact with respect to the
// analysis: a smaller set leaves some critical pair relaxed.
//
// The search is iterative deepening: take a critical pair still relaxed and
// a shortest fence-free path of it; any solution fences one of the sites on
// that path (the pair's own write, or a write along the path), so branch on
// them.
//
// Under a model with Axioms the sites are found the same way (a fence at a
// site taken as a full one, which cuts every path through it); then each
// site gets the cheapest barrier of the model that keeps every pair of
// kinds (write→write, read→read, …) of the relaxed pairs whose free paths
// pass it (FenceSet.Kinds): a path through the site is then cut by it, and
// the other paths by the other sites, as with full fences.
func (an *Analysis) MinFences() (*FenceSet, error) {
	return an.MinFencesWith(nil)
}

// MinFencesWith is MinFences under the extra constraint that the set meets
// every set in required (candidate sets of fence elements: each must
// contain a fence): a minimum set that both hits required and makes the
// program robust. A required set with no element makes it fail. Only full
// fences cut critical pairs; a store fence is taken only to meet a
// required set.
func (an *Analysis) MinFencesWith(required [][]fences.Element) (*FenceSet, error) {
	for _, r := range required {
		if len(r) == 0 {
			return nil, errors.New("a required candidate set is empty")
		}
	}
	fs := &FenceSet{Minimal: true}
	for k := 0; ; k++ {
		f := newFencing()
		found, err := an.deepen(f, required, k, fs)
		if err != nil {
			return nil, err
		}
		if found {
			an.into(f, required, fs)
			return fs, nil
		}
		if fs.Nodes > MaxFenceNodes {
			break
		}
	}
	// Greedy fallback: fence every site on the witness paths until robust.
	fs.Minimal = false
	f := newFencing()
	for _, r := range required {
		f.add(r[0])
	}
	for {
		ok, p := an.robustWith(f)
		if ok {
			an.into(f, required, fs)
			return fs, nil
		}
		path, _ := an.freePathWith(p, f)
		sites := an.Graph.pathSites(p.A, path)
		if len(sites) == 0 {
			return nil, ErrUncuttable
		}
		for _, s := range sites {
			f.add(fences.Element{Site: s, Kind: cs.FullFence})
		}
	}
}

// fencing is the fence set of a search: its elements, and the sites of its
// full fences (what Robust looks at).
type fencing struct {
	in   map[fences.Element]bool
	full map[int]bool
}

func newFencing() *fencing {
	return &fencing{in: map[fences.Element]bool{}, full: map[int]bool{}}
}

func (f *fencing) add(e fences.Element) {
	f.in[e] = true
	if e.Kind == cs.FullFence {
		f.full[e.Site] = true
	}
}

func (f *fencing) remove(e fences.Element) {
	delete(f.in, e)
	if e.Kind == cs.FullFence {
		delete(f.full, e.Site)
	}
}

// kinds is the fencing as a fence kind per site, the elements at one site
// together keeping what any of them keeps.
func (f *fencing) kinds() map[int]cs.FenceKind {
	o := map[int]cs.Ordering{}
	for e := range f.in {
		o[e.Site] |= e.Kind.Orders()
	}
	out := make(map[int]cs.FenceKind, len(o))
	for s, x := range o {
		out[s] = cs.MaskFence(x)
	}
	return out
}

// robustWith is Robust with the fencing installed: its full fences under
// a store-buffer model (its store fences, taken only to meet required
// sets, cut nothing there), every element at its kind under a model with
// Axioms.
func (an *Analysis) robustWith(f *fencing) (bool, *Pair) {
	if an.Graph.weak() {
		return an.RobustFences(f.kinds())
	}
	return an.Robust(f.full)
}

// freePathWith is the free path of p with the fencing installed, as
// robustWith reads it.
func (an *Analysis) freePathWith(p *Pair, f *fencing) (Path, bool) {
	if an.Graph.weak() {
		return an.Graph.weakFreePath(p.A, p.B, f.kinds())
	}
	return an.Graph.FreePath(p.A, p.B, f.full)
}

// into stores the fencing in fs: as it is under a store-buffer model;
// under a model with Axioms, every site of it with the kind weakKinds
// gives it.
func (an *Analysis) into(f *fencing, required [][]fences.Element, fs *FenceSet) {
	f.into(fs)
	if !an.Graph.weak() {
		return
	}
	fs.Kinds = an.weakKinds(f, required)
	fs.Sites, fs.Store = []int{}, nil
	for s := range fs.Kinds {
		fs.Sites = append(fs.Sites, s)
	}
	sort.Ints(fs.Sites)
}

// weakKinds gives each site of the fencing its kind under a model with
// Axioms. The sites the search chose (full fences that no required set
// asks for) get the cheapest barrier of the model that keeps every pair of
// kinds of the relaxed pairs with a free path through the site
// (Graph.needs), and what the other elements at the site keep; the other
// elements keep their kinds. Every free path of a critical pair passes a
// chosen site or is cut by the other elements (the set cuts them all with
// full fences at the chosen sites), and the barrier at a chosen site keeps
// the pair of every free path through it: the kinds cut what the full
// fences cut. The answer is checked all the same, and full fences kept if
// the check fails.
func (an *Analysis) weakKinds(f *fencing, required [][]fences.Element) map[int]cs.FenceKind {
	asked := map[fences.Element]bool{}
	for _, r := range required {
		for _, e := range r {
			asked[e] = true
		}
	}
	fixed := map[int]cs.Ordering{}
	chosen := map[int]bool{}
	for e := range f.in {
		if e.Kind == cs.FullFence && !asked[e] {
			chosen[e.Site] = true
		} else {
			fixed[e.Site] |= e.Kind.Orders()
		}
	}
	need := map[int]cs.Ordering{}
	if len(chosen) > 0 {
		for _, p := range an.Critical {
			an.Graph.needs(p.A, p.B, need)
		}
	}
	kinds := map[int]cs.FenceKind{}
	for s, o := range fixed {
		kinds[s] = cs.MaskFence(o)
	}
	for s := range chosen {
		o := need[s] | fixed[s]
		if o == 0 {
			o = cs.AllOrders // on no free path: not in a set the search found
		}
		kinds[s] = cheapest(an.Model, o)
	}
	if ok, _ := an.RobustFences(kinds); !ok {
		return f.kinds()
	}
	return kinds
}

// meets reports whether the fencing has an element of set.
func (f *fencing) meets(set []fences.Element) bool {
	for _, e := range set {
		if f.in[e] {
			return true
		}
	}
	return false
}

// into stores the fencing's sites in fs.
func (f *fencing) into(fs *FenceSet) {
	fs.Sites, fs.Store = nil, nil
	for e := range f.in {
		if e.Kind == cs.FullFence {
			fs.Sites = append(fs.Sites, e.Site)
		} else {
			fs.Store = append(fs.Store, e.Site)
		}
	}
	if fs.Sites == nil {
		fs.Sites = []int{}
	}
	sort.Ints(fs.Sites)
	sort.Ints(fs.Store)
}

// deepen looks for a set of at most k more fences that, added to f, makes
// the program robust; on success f holds the answer.
func (an *Analysis) deepen(f *fencing, required [][]fences.Element, k int, fs *FenceSet) (bool, error) {
	fs.Nodes++
	var elems []fences.Element
	for _, r := range required {
		if !f.meets(r) {
			elems = r
			break
		}
	}
	if elems == nil {
		ok, p := an.robustWith(f)
		if ok {
			return true, nil
		}
		if k == 0 || fs.Nodes > MaxFenceNodes {
			return false, nil
		}
		path, _ := an.freePathWith(p, f)
		sites := an.Graph.pathSites(p.A, path)
		if len(sites) == 0 {
			return false, ErrUncuttable
		}
		for _, s := range sites {
			elems = append(elems, fences.Element{Site: s, Kind: cs.FullFence})
		}
	}
	if k == 0 || fs.Nodes > MaxFenceNodes {
		return false, nil
	}
	for _, e := range elems {
		f.add(e)
		found, err := an.deepen(f, required, k-1, fs)
		if err != nil || found {
			return found, err
		}
		f.remove(e)
	}
	return false, nil
}
