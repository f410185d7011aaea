package fences

import (
	"strings"
	"testing"

	"fencer/cs"
)

// Place writes a full and a store fence where the elements say, and with
// Reconsider keeps the fences of the source it is given and removes the
// others.
func TestPlace(t *testing.T) {
	sys := parseSrc(t, twoWrites)
	site := func(text string) int {
		for _, s := range sys.Sites {
			if s.Text == text && s.Place == cs.After {
				return s.ID
			}
		}
		t.Fatalf("no site after %q", text)
		return -1
	}
	x, y := site("x = 1;"), site("y = 1;")
	patched, removed, err := Place(sys, []Element{full(x), store(y)})
	if err != nil || len(removed) != 0 {
		t.Fatalf("Place: %v, removed %v", err, removed)
	}
	if got := string(patched); !strings.Contains(got, "x = 1;\n  fence;\n  y = 1;\n  fence store;\n") {
		t.Errorf("patched:\n%s", got)
	}

	src := strings.Replace(twoWrites, "x = 1;\n", "x = 1;\n  fence;\n", 1)
	src = strings.Replace(src, "y = 1;\n", "y = 1;\n  fence;\n", 1)
	rsys, err := cs.ParseWith("t.cs", []byte(src), cs.Options{Reconsider: true})
	if err != nil {
		t.Fatal(err)
	}
	var keep []Element
	for _, s := range rsys.Sites { // sorted by offset: the first is x's
		if s.Fence {
			keep = append(keep, full(s.ID))
			break
		}
	}
	patched, removed, err = Place(rsys, keep)
	if err != nil || len(keep) != 1 || len(removed) != 1 {
		t.Fatalf("reconsider: keep %v, removed %v, %v", keep, removed, err)
	}
	if got := string(patched); strings.Count(got, "fence;") != 1 || !strings.Contains(got, "x = 1;\n  fence;\n  y = 1;\n}") {
		t.Errorf("patched:\n%s", got)
	}
}
