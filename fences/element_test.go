package fences

import (
	"slices"
	"testing"

	"fencer/cs"
)

const twoWrites = `shared x, y;
process P {
  x = 1;
  y = 1;
}
process Q {
  local r;
  r = y;
  r = x;
}
`

func parseSrc(t *testing.T, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func full(s int) Element  { return Element{Site: s, Kind: cs.FullFence} }
func store(s int) Element { return Element{Site: s, Kind: cs.StoreFence} }

func TestElementOrder(t *testing.T) {
	set := []Element{store(0), full(3), full(1), store(2)}
	slices.SortFunc(set, Compare)
	if want := []Element{full(1), full(3), store(0), store(2)}; !slices.Equal(set, want) {
		t.Errorf("sorted %v, want %v", set, want)
	}
	if got := store(2).String() + " " + full(1).String(); got != "2(store) 1" {
		t.Errorf("String: %q", got)
	}
}

// MinSet: the fewest fences; with store fences, fewest full ones among
// those; a candidate set with nothing in it has no answer.
func TestOrderMinSet(t *testing.T) {
	sys := parseSrc(t, twoWrites)
	if len(sys.Sites) < 2 {
		t.Fatalf("%d sites", len(sys.Sites))
	}
	cands := [][]Element{{full(0), full(1), store(0)}, {full(0), store(0)}}
	got, ok := NewOrder(sys, true).MinSet(cands)
	if !ok || !slices.Equal(got, []Element{store(0)}) {
		t.Errorf("with store fences: %v, %v; want [0(store)]", got, ok)
	}
	got, ok = NewOrder(sys, false).MinSet([][]Element{{full(0), full(1)}, {full(1)}})
	if !ok || !slices.Equal(got, []Element{full(1)}) {
		t.Errorf("full fences: %v, %v; want [1]", got, ok)
	}
	if _, ok := NewOrder(sys, false).MinSet([][]Element{{full(0)}, {}}); ok {
		t.Error("an empty candidate set must have no hitting set")
	}
}

// NextMinimum enumerates the minimum hitting sets in the order of
// preference, skipping those tried.
func TestOrderNextMinimum(t *testing.T) {
	sys := parseSrc(t, twoWrites)
	o := NewOrder(sys, false)
	cands := [][]Element{{full(0), full(1)}}
	first, _ := o.MinSet(cands)
	seen := map[string]bool{}
	tried := func(h []Element) bool { return seen[keyOf(h)] }
	seen[keyOf(first)] = true
	var all [][]Element
	for {
		h := o.NextMinimum(cands, 1, tried)
		if h == nil {
			break
		}
		seen[keyOf(h)] = true
		all = append(all, h)
	}
	if len(all) != 1 || slices.Equal(all[0], first) || !hits([]int{all[0][0].Site}, [][]int{{0, 1}}) {
		t.Errorf("first %v, others %v: want the other site alone", first, all)
	}
}

func keyOf(h []Element) string {
	s := ""
	for _, e := range h {
		s += e.String() + ","
	}
	return s
}
