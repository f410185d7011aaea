package litmus

import (
	"context"
	"strings"
	"testing"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
)

const sbExtra = `X86 SB+extra
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MFENCE      | MFENCE      ;
 MOV EAX,[y] | MOV EAX,[x] ;
 MFENCE      |             ;
 MOV EBX,[x] | MFENCE      ;
exists (0:EAX=0 /\ 1:EAX=0)
`

// insert --reconsider on a litmus test (issue 26, item 2): the MFENCEs the
// answer needs stay, the others leave their cells, and a row left empty
// goes; the patched test parses and has the fences the result keeps.
func TestReconsider(t *testing.T) {
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	sys, err := Parse("sb.litmus", []byte(sbExtra))
	if err != nil {
		t.Fatal(err)
	}
	r, patched, err := cegar.Insert(context.Background(), sys, sol, cegar.Options{Model: memmodel.TSO, Reconsider: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != cegar.Correct || len(r.Fences) != 2 || len(r.Removed) != 2 {
		t.Fatalf("%s, %d fences, %d removed", r.Verdict, len(r.Fences), len(r.Removed))
	}
	want := " MOV [x],$1  | MOV [y],$1  ;\n MFENCE      | MFENCE      ;\n MOV EAX,[y] | MOV EAX,[x] ;\n MOV EBX,[x] |             ;\n"
	if !strings.Contains(string(patched), want) {
		t.Errorf("patched:\n%s", patched)
	}
	if _, err := Parse("sb.litmus", patched); err != nil {
		t.Errorf("%v", err)
	}
}

// A litmus test cannot take a store fence: --kinds store is refused before
// any work, and EditFences refuses one.
func TestNoStoreFences(t *testing.T) {
	sys, err := Parse("sb.litmus", []byte(sbExtra))
	if err != nil {
		t.Fatal(err)
	}
	err = cegar.ReaderCanEdit(sys, cegar.Options{StoreFences: true})
	if err == nil || !strings.Contains(err.Error(), "sb.litmus: no store fence can be written in a litmus file: an x86 litmus test has no store fence to write") {
		t.Errorf("ReaderCanEdit: %v", err)
	}
	if err := cegar.ReaderCanEdit(sys, cegar.Options{Reconsider: true}); err != nil {
		t.Errorf("ReaderCanEdit with Reconsider: %v", err)
	}
	if _, err := EditFences([]byte(sbExtra), nil, sys.WriteSites(), nil); err == nil {
		t.Error("EditFences wrote a store fence")
	}
	var _ cs.FenceEditor = Reader{}
	// Every MFENCE of the test is a candidate with Reconsider.
	rsys, err := Reader{}.ParseWith("sb.litmus", []byte(sbExtra), cs.Options{Reconsider: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range rsys.Sites {
		if s.Fence {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d fence sites, want 4", n)
	}
}
