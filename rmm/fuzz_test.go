package rmm

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"fencer/cs"
)

var fuzzSeeds = []string{
	"",
	"forbidden",
	"forbidden CS CS process(2) data f = 0 : [0:1] registers $r = * text L: write: f[my] := 1; read: $r := f[0]; CS: nop; goto L",
	"forbidden * L data x = * : Z process text nop process text L: either { read: x = 1 or assume: true } ",
	"forbidden A B data x = 0 process registers $a = 0 text A: locked { read: $a := x; write: x := $a + 1 or write: x := 2 }; cas(x, 0, 1) process text B: locked write: x := 1; fence",
	"macro M(v) write: v := 1 endmacro forbidden A data x = 0 process text A: M(x); M(x)",
	"macro M(v) M(v) endmacro forbidden A process text A: M(1)",
	"forbidden A process text A: if [true && not $r = 1] then nop else nop",
	"forbidden A /* unterminated",
	"forbidden A process text A: ssfence",
	"forbidden A data x = 0 : [0:1] process text A: write: x := 2",
	"\x00\xff forbidden",
	"forbidden A process(99999999999999999999) text A: nop",
	"forbidden A B data a = 0 b = 0 : [0:1] process registers $i = 1 text A: write: [$i] := 1; read: [$i - 1] = 0; cas([1], 0, 1) process text B: write: [0] := [1]",
	"forbidden skip data x = 0 process text skip: goto skip",
	"forbidden A data x = 2 process registers $r = * : [0:1] text $r := $r + 1; read: $r := x; llfence; A: fence",
	"forbidden A data x = 0 : [0:1] process text A: { fence }; either { fence or nop }; if true then fence; L: fence; fence",
}

// FuzzParse checks that no input makes Parse panic, that every failure is
// one positioned error, and that InsertFences on every site gives a model
// that parses again.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../benchmarks/rmm/*.rmm")
	more, _ := filepath.Glob("../benchmarks/rmm/constructs/*.rmm")
	files = append(files, more...)
	for _, path := range files {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
	}
	posRE := regexp.MustCompile(`^fuzz\.rmm:\d+:\d+: `)
	f.Fuzz(func(t *testing.T, src []byte) {
		sys, err := Parse("fuzz.rmm", src)
		if err != nil {
			var list cs.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || !posRE.MatchString(list[0].Error()) {
				t.Fatalf("error not positioned: %v", err)
			}
			return
		}
		if sys.Reader == nil {
			t.Fatal("no Reader")
		}
		patched, err := InsertFences(src, sys.WriteSites())
		if err != nil {
			return // a write spanning a macro argument
		}
		if _, err := Parse("fuzz.rmm", patched); err != nil {
			t.Fatalf("patched model does not parse: %v\n%s", err, patched)
		}
		// Every fence statement removed (insert --reconsider): the model
		// still parses and has none left.
		rsys, err := Reader{}.ParseWith("fuzz.rmm", src, cs.Options{Reconsider: true})
		if err != nil {
			t.Fatalf("reads without Reconsider, not with it: %v", err)
		}
		var fences []*cs.Site
		for _, s := range rsys.Sites {
			if s.Fence {
				fences = append(fences, s)
			}
		}
		removed, err := EditFences(src, nil, nil, fences)
		if err != nil {
			return // a fence in a macro body
		}
		rsys, err = Reader{}.ParseWith("fuzz.rmm", removed, cs.Options{Reconsider: true})
		if err != nil {
			t.Fatalf("model without its fences does not parse: %v\n%s", err, removed)
		}
		for _, s := range rsys.Sites {
			if s.Fence {
				t.Fatalf("a fence is left:\n%s", removed)
			}
		}
	})
}

// TestErrors checks the position and text of some errors.
func TestErrors(t *testing.T) {
	for src, want := range map[string]string{
		"forbidden A process text A: syncwr: x := 1":                "t.rmm:1:29: syncwr is not read: it is a synchronising access of Memorax's VIPS-M model",
		"forbidden A process text A: slocked write: x := 1":         "t.rmm:1:29: slocked is not read",
		"forbidden A B process text A: nop":                         "t.rmm:1:11: forbidden state has 2 entries, the model has 1 processes",
		"macro M(v) M(v) endmacro forbidden A process text A: M(1)": "t.rmm:1:12: cyclic call of macro M",
		"forbidden A process text A: read: $r := x":                 "t.rmm:1:35: register $r is not declared",
		"forbidden A /* x":                "t.rmm:1:13: comment not terminated",
		"forbidden A process text B: nop": "t.rmm:1:11: ",
	} {
		_, err := Parse("t.rmm", []byte(src))
		if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
			t.Errorf("%q: got %v, want %s...", src, err, want)
		}
	}
}

// TestStatementTexts reads models whose statements mix tokens of macro
// bodies defined before them with tokens of their own text: every fence
// site is a piece of the source that starts where its statement does
// (issue 37: Memorax's volrend.rmm made Lower slice src[930:445]).
func TestStatementTexts(t *testing.T) {
	path := "testdata/macro_end_before_start.rmm"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	for _, s := range sys.Sites {
		if s.Start > s.End || s.End > len(src) || s.Text != string(src[s.Start:s.End]) {
			t.Errorf("site %d: [%d:%d] %q", s.ID, s.Start, s.End, s.Text)
		}
		texts[s.Text] = true
	}
	for _, want := range []string{"$r :=", "write: x := 1"} {
		if !texts[want] {
			t.Errorf("no site with text %q; have %v", want, texts)
		}
	}
}
