package cs

import "testing"

// TestSameFuture: the read before a wait loop through a local copy and the
// read in its body have one future; a read into another local, or at a
// location of a bad state, does not.
func TestSameFuture(t *testing.T) {
	src := `shared x, y;
process P {
  local c;
  c = x;
  while (c != 0) {
    c = x;
  }
  y = 1;
  while (x != 0) { }
  c = x;
  while (c != 0) {
    c = x;
  }
}
`
	sys, err := Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := sys.Procs[0]
	rep := p.SameFuture(func(Loc) string { return "" })
	var reads []Loc // the locations before a read of x into c
	for _, e := range p.Edges {
		if e.Op.Kind == OpRead && e.Op.Local == p.Locals[0].Name {
			reads = append(reads, e.From)
		}
	}
	if len(reads) != 4 {
		t.Fatalf("%d reads into c, want 4", len(reads))
	}
	if rep[reads[0]] != rep[reads[1]] || rep[reads[0]] != reads[0] {
		t.Errorf("the two reads of the first loop: blocks %d and %d, want both %d", rep[reads[0]], rep[reads[1]], reads[0])
	}
	if rep[reads[2]] != rep[reads[3]] {
		t.Errorf("the two reads of the second loop: blocks %d and %d", rep[reads[2]], rep[reads[3]])
	}
	if rep[reads[0]] == rep[reads[2]] {
		t.Errorf("the first loop (y = 1 after it) and the second (nothing after it) merged")
	}
	for l, r := range rep {
		if r > Loc(l) {
			t.Errorf("location %d in the block of %d: not the least", l, r)
		}
	}
	// A label (a location of a bad state) keeps a location apart.
	rep = p.SameFuture(func(l Loc) string {
		if l == reads[1] {
			return "bad"
		}
		return ""
	})
	if rep[reads[0]] == rep[reads[1]] {
		t.Errorf("a labelled location merged with an unlabelled one")
	}
}
