package rmm

import (
	"context"
	"strings"
	"testing"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
)

// fenceSites returns the sites of the fence statements of src read with
// Reconsider.
func fenceSites(t *testing.T, src string) []*cs.Site {
	t.Helper()
	sys, err := Reader{}.ParseWith("t.rmm", []byte(src), cs.Options{Reconsider: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []*cs.Site
	for _, s := range sys.Sites {
		if s.Fence {
			out = append(out, s)
		}
	}
	return out
}

// TestRemoveFences checks each removal rule: the fence statement goes with
// its ';' (and its line when alone on it), a fence that ends a list takes
// the ';' before it, and one that is labelled, a whole body or alone in a
// list becomes nop. The result parses and has no fence.
func TestRemoveFences(t *testing.T) {
	head := "forbidden L\ndata x = 0\nprocess\nregisters $r = 0\ntext\n"
	for _, c := range []struct{ body, want string }{
		{"L: write: x := 1;\n  fence;\n  nop\n", "L: write: x := 1;\n  nop\n"},
		{"L: write: x := 1; fence; nop\n", "L: write: x := 1; nop\n"},
		{"L: write: x := 1; fence;\n  nop\n", "L: write: x := 1;\n  nop\n"},
		{"L: write: x := 1;\n  fence\n", "L: write: x := 1\n"},
		{"L: write: x := 1;\n  M: fence\n", "L: write: x := 1;\n  M: nop\n"},
		{"L: either { fence or nop }\n", "L: either { nop or nop }\n"},
		{"L: if $r = 0 then fence else nop\n", "L: if $r = 0 then nop else nop\n"},
		{"L: write: x := 1;\r\n  fence;\r\n  nop\r\n", "L: write: x := 1;\r\n  nop\r\n"},
	} {
		src := head + c.body
		out, err := EditFences([]byte(src), nil, nil, fenceSites(t, src))
		if err != nil {
			t.Fatalf("%q: %v", c.body, err)
		}
		if got := strings.TrimPrefix(string(out), head); got != c.want {
			t.Errorf("%q: got %q, want %q", c.body, got, c.want)
		}
		if n := len(fenceSites(t, string(out))); n != 0 {
			t.Errorf("%q: %d fences left", c.body, n)
		}
	}
}

// Store fences are written as ssfence, where full fences go.
func TestInsertStoreFences(t *testing.T) {
	src := "forbidden L\ndata x = 0 y = 0\nprocess\ntext\nL: write: x := 1;\n  write: y := 1\n"
	sys, err := Parse("t.rmm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ws := sys.WriteSites()
	out, err := EditFences([]byte(src), ws[1:], ws[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "L: write: x := 1;\n   ssfence;\n  write: y := 1;\n  fence\n"
	if !strings.HasSuffix(string(out), want) {
		t.Errorf("got\n%s\nwant the text to end with\n%s", out, want)
	}
	var _ cs.FenceEditor = Reader{}
}

// insert --reconsider and --kinds full,store on .rmm models (issue 26,
// item 2): the fences the answer needs stay, the others go; a store fence
// is written as ssfence; the patched model parses and is what the result
// says.
func TestReconsiderAndKinds(t *testing.T) {
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	sb := "forbidden CS CS\ndata x = 0 : [0:1] y = 0 : [0:1]\n" +
		"process text write: x := 1; fence; read: y = 0; fence; CS: nop\n" +
		"process text write: y := 1; fence; read: x = 0; CS: fence\n"
	sys, err := Parse("sb.rmm", []byte(sb))
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
	if n := strings.Count(string(patched), "fence"); n != 2 {
		t.Errorf("%d fences in the patched model:\n%s", n, patched)
	}
	if _, err := Parse("sb.rmm", patched); err != nil {
		t.Errorf("%v\n%s", err, patched)
	}
	mp := "forbidden * BAD\ndata x = 0 : [0:1] y = 0 : [0:1]\n" +
		"process text write: x := 1; write: y := 1\n" +
		"process text read: y = 1; read: x = 0; BAD: nop\n"
	sys, err = Parse("mp.rmm", []byte(mp))
	if err != nil {
		t.Fatal(err)
	}
	if err := cegar.ReaderCanEdit(sys, cegar.Options{StoreFences: true, Reconsider: true}); err != nil {
		t.Fatal(err)
	}
	r, patched, err = cegar.Insert(context.Background(), sys, sol, cegar.Options{Model: memmodel.PSO, StoreFences: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != cegar.Correct || len(r.Fences) != 1 || r.Fences[0].Kind != cs.StoreFence {
		t.Fatalf("%s, %d fences", r.Verdict, len(r.Fences))
	}
	if !strings.Contains(string(patched), "write: x := 1; ssfence; write: y := 1") {
		t.Errorf("patched:\n%s", patched)
	}
}
