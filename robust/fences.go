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
	Sites []int // site IDs (System.Sites) of its full fences, sorted
	// Store holds the sites of the store fences a required set of
	// MinFencesWith made it take (a store fence cuts no critical pair),
	// sorted; nil from MinFences.
	Store   []int
	Minimal bool // proved the fewest fences that make the program robust
	Nodes   int  // nodes of the search
}

// Elements is the fence set as fence elements, sorted (fences.Compare).
func (fs *FenceSet) Elements() []fences.Element {
	var out []fences.Element
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
			f.into(fs)
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
		ok, p := an.Robust(f.full)
		if ok {
			f.into(fs)
			return fs, nil
		}
		path, _ := an.Graph.FreePath(p.A, p.B, f.full)
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
		ok, p := an.Robust(f.full)
		if ok {
			return true, nil
		}
		if k == 0 || fs.Nodes > MaxFenceNodes {
			return false, nil
		}
		path, _ := an.Graph.FreePath(p.A, p.B, f.full)
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
