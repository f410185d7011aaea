package rmm

import (
	"strings"
	"testing"

	"fencer/cs"
)

// TestInsertFences checks each placement rule: the patched model is the
// expected text, parses, and has the fence where the site was.
func TestInsertFences(t *testing.T) {
	head := "forbidden L\ndata x = 0\nprocess\nregisters $r = 0\ntext\n"
	for _, c := range []struct{ body, want string }{
		{"L: write: x := 1;\n  read: $r := x\n", "L: write: x := 1;\n   fence;\n  read: $r := x\n"},
		{"L: write: x := 1; // note\n  nop\n", "L: write: x := 1; // note\n   fence;\n  nop\n"},
		{"L: write: x := 1; read: $r := x\n", "L: write: x := 1; fence; read: $r := x\n"},
		{"L: nop;\n  write: x := 1\n", "L: nop;\n  write: x := 1;\n  fence\n"},
		{"L: either { write: x := 1 or nop }\n", "L: either { write: x := 1; fence or nop }\n"},
		{"L: if $r = 0 then write: x := 1 else nop\n", "L: if $r = 0 then { write: x := 1; fence } else nop\n"},
		{"L: while $r = 0 do M: write: x := 1\n", "L: while $r = 0 do { M: write: x := 1; fence }\n"},
		{"L: write: x := 1;\r\n  nop\r\n", "L: write: x := 1;\r\n   fence;\r\n  nop\r\n"},
		{"L: write: [$r] := 1;\n  nop\n", "L: write: [$r] := 1;\n   fence;\n  nop\n"},
	} {
		src := []byte(head + c.body)
		sys, err := Parse("p.rmm", src)
		if err != nil {
			t.Fatalf("%q: %v", c.body, err)
		}
		out, err := InsertFences(src, sys.WriteSites())
		if err != nil {
			t.Fatalf("%q: %v", c.body, err)
		}
		if got := string(out[len(head):]); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.body, got, c.want)
		}
		psys, err := Parse("p.rmm", out)
		if err != nil {
			t.Fatalf("%q: patched model does not parse: %v", c.body, err)
		}
		fences := 0
		for _, p := range psys.Procs {
			for _, e := range p.Edges {
				if e.Op.Kind.String() == "fence" {
					fences++
				}
			}
		}
		if fences != 1 {
			t.Errorf("%q: %d fences in the patched model", c.body, fences)
		}
	}
}

// TestMacroSites: a write in a macro body is one site for all uses and is
// fenced in the body; a write built from an argument cannot be patched.
func TestMacroSites(t *testing.T) {
	src := "macro W(v) write: x := v endmacro\nmacro S() write: x := 1 endmacro\nforbidden L\ndata x = 0\nprocess\ntext\nL: S(); S(); W(2)\n"
	sys, err := Parse("m.rmm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(sys.WriteSites()) != 2 {
		t.Fatalf("%d sites, want 2 (S's write, W's write)", len(sys.WriteSites()))
	}
	var sSite, wSite = sys.WriteSites()[1], sys.WriteSites()[0]
	if !strings.HasPrefix(sSite.Text, "write: x := 1") {
		sSite, wSite = wSite, sSite
	}
	out, err := InsertFences([]byte(src), sys.WriteSites()[:0:0])
	if err != nil || string(out) != src {
		t.Fatalf("no sites: %v %q", err, out)
	}
	out, err = InsertFences([]byte(src), []*cs.Site{sSite})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(src, "write: x := 1 endmacro", "write: x := 1; fence endmacro", 1); string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	psys, err := Parse("m.rmm", out)
	if err != nil {
		t.Fatal(err)
	}
	fences := 0
	for _, e := range psys.Procs[0].Edges {
		if e.Op.Kind.String() == "fence" {
			fences++
		}
	}
	if fences != 2 {
		t.Errorf("%d fences, want 2 (one per use of S)", fences)
	}
	if _, err := InsertFences([]byte(src), []*cs.Site{wSite}); err == nil || !strings.Contains(err.Error(), "macro") {
		t.Errorf("a write from an argument: got %v, want an error", err)
	}
}
