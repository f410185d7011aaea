package robust

import (
	"errors"
	"sort"
)

// MaxFenceNodes bounds the nodes of the exact search for a minimum fence
// set. Past it, MinFences returns a fence set that makes the program robust
// but is not proved minimum (Minimal false).
const MaxFenceNodes = 200_000

// FenceSet is the answer of MinFences.
type FenceSet struct {
	Sites   []int // site IDs (System.Sites), sorted
	Minimal bool  // proved the fewest sites that make the program robust
	Nodes   int   // nodes of the search
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
// every set in required (candidate sets of fence sites: each must contain
// a fence): a minimum set that both hits required and makes the program
// robust. A required set with no site makes it fail.
func (an *Analysis) MinFencesWith(required [][]int) (*FenceSet, error) {
	for _, r := range required {
		if len(r) == 0 {
			return nil, errors.New("a required candidate set is empty")
		}
	}
	fs := &FenceSet{Minimal: true}
	for k := 0; ; k++ {
		fenced := map[int]bool{}
		found, err := an.deepen(fenced, required, k, fs)
		if err != nil {
			return nil, err
		}
		if found {
			fs.Sites = sortedKeys(fenced)
			return fs, nil
		}
		if fs.Nodes > MaxFenceNodes {
			break
		}
	}
	// Greedy fallback: fence every site on the witness paths until robust.
	fs.Minimal = false
	fenced := map[int]bool{}
	for _, r := range required {
		fenced[r[0]] = true
	}
	for {
		ok, p := an.Robust(fenced)
		if ok {
			fs.Sites = sortedKeys(fenced)
			return fs, nil
		}
		path, _ := an.Graph.FreePath(p.A, p.B, fenced)
		sites := an.Graph.pathSites(p.A, path)
		if len(sites) == 0 {
			return nil, ErrUncuttable
		}
		for _, s := range sites {
			fenced[s] = true
		}
	}
}

// deepen looks for a set of at most k more sites that, added to fenced,
// makes the program robust; on success fenced holds the answer.
func (an *Analysis) deepen(fenced map[int]bool, required [][]int, k int, fs *FenceSet) (bool, error) {
	fs.Nodes++
	var sites []int
	for _, r := range required {
		if !meets(r, fenced) {
			sites = r
			break
		}
	}
	if sites == nil {
		ok, p := an.Robust(fenced)
		if ok {
			return true, nil
		}
		if k == 0 || fs.Nodes > MaxFenceNodes {
			return false, nil
		}
		path, _ := an.Graph.FreePath(p.A, p.B, fenced)
		sites = an.Graph.pathSites(p.A, path)
		if len(sites) == 0 {
			return false, ErrUncuttable
		}
	}
	if k == 0 || fs.Nodes > MaxFenceNodes {
		return false, nil
	}
	for _, s := range sites {
		fenced[s] = true
		found, err := an.deepen(fenced, required, k-1, fs)
		if err != nil || found {
			return found, err
		}
		delete(fenced, s)
	}
	return false, nil
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Ints(out)
	return out
}

func meets(set []int, fenced map[int]bool) bool {
	for _, s := range set {
		if fenced[s] {
			return true
		}
	}
	return false
}
