package formats

import (
	"strings"
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

// The four formats of the tree are registered, each found by its name
// and by its extension in any case, and an unknown extension is .cs.
func TestRegistry(t *testing.T) {
	if got := strings.Join(Names(), ","); got != "c,cs,litmus,rmm" {
		t.Fatalf("formats %s", got)
	}
	for name, ext := range map[string]string{"c": "lock.c", "cs": "x.cs", "rmm": "a/b.RMM", "litmus": "sb.litmus"} {
		if f := ByExtension(ext); f == nil || f.Name != name {
			t.Errorf("%s: format %v", ext, f)
		}
		if f, err := ForFile("x.txt", name); err != nil || f.Name != name {
			t.Errorf("--format %s: %v %v", name, f, err)
		}
	}
	if f := ByExtension("prog.txt"); f.Name != Default {
		t.Errorf("prog.txt is %s", f.Name)
	}
	if _, err := ForFile("x.cs", "pascal"); err == nil || !strings.Contains(err.Error(), "c, cs, litmus, rmm") {
		t.Errorf("unknown format: %v", err)
	}
	if !Lookup("cs").CanFence("store") || Lookup("litmus").CanFence("store") || !Lookup("rmm").CanFence("full") {
		t.Error("fence kinds")
	}
}

// Register refuses a format without what every command needs.
func TestRegisterRefuses(t *testing.T) {
	for _, f := range []*Format{
		{Name: "x"},
		{Name: "cs", Extensions: []string{".y"}, Parse: Lookup("cs").Parse, Program: Lookup("cs").Program, Expect: Comment{Open: "//"}},
		{Name: "y", Extensions: []string{".cs"}, Parse: Lookup("cs").Parse, Program: Lookup("cs").Program, Expect: Comment{Open: "//"}},
		{Name: "z", Extensions: []string{".z"}, Parse: Lookup("cs").Parse, Program: Lookup("cs").Program},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%+v) did not panic", f)
				}
			}()
			Register(f)
		}()
	}
	if len(All()) != 4 {
		t.Errorf("%d formats after refusals", len(All()))
	}
}

// Each format reads expectations in its own comment syntax, with the
// line and column of the comment.
func TestExpectations(t *testing.T) {
	src := "shared x;\n  // fencer: expect tso fences=2\n// fencer: expect pso bug\n// fencer: expect sc safe\n"
	exps, errs := Lookup("cs").Expectations("a.cs", []byte(src))
	if len(errs) != 0 || len(exps) != 3 {
		t.Fatalf("%v %v", exps, errs)
	}
	if e := exps[0]; e.Line != 2 || e.Col != 3 || e.Model != memmodel.TSO || e.Fences != 2 || e.Text() != "tso fences=2" {
		t.Errorf("%+v", e)
	}
	if !exps[1].Bug || exps[2].Bug || exps[2].Fences != 0 {
		t.Errorf("%+v", exps)
	}
	exps, errs = Lookup("litmus").Expectations("a.litmus", []byte("X86 a\n(* fencer: expect tso fences=1 *)\n"))
	if len(errs) != 0 || len(exps) != 1 || exps[0].Fences != 1 {
		t.Errorf("litmus: %v %v", exps, errs)
	}
	_, errs = Lookup("cs").Expectations("a.cs", []byte("\n// fencer: expect tso maybe\n"))
	if len(errs) != 1 || errs[0].Error() != `a.cs:2:1: unknown expectation "maybe" (want safe, bug or fences=N)` {
		t.Errorf("errs %v", errs)
	}
}

// A near miss of an expectation line is an error at its comment; prose
// about fencer is not.
func TestExpectationNearMisses(t *testing.T) {
	for _, c := range []struct{ format, line string }{
		{"cs", "// Fencer: expect tso safe"},
		{"cs", "// fencer expect tso safe"},
		{"cs", "/* fencer: expect tso safe */"},
		{"cs", "// fencer: expct tso safe"},
		{"cs", "x = 1; // FENCER: EXPECT tso safe"},
		{"cs", "(* fencer: expect tso safe *)"},
		{"cs", "// fencer: expects tso safe"},
		{"litmus", "// fencer: expect tso safe"},
		{"litmus", "(* fencer expect tso safe *)"},
		{"rmm", "/* fencer: expect pso fences=1 */"},
	} {
		src := "shared x;\n" + c.line + "\n"
		exps, errs := Lookup(c.format).Expectations("f", []byte(src))
		col := strings.IndexAny(c.line, "/(") + 1
		if len(exps) != 0 || len(errs) != 1 || errs[0].Pos.Line != 2 || errs[0].Pos.Col != col {
			t.Errorf("%s %q: %v, errors %v (want one at 2:%d)", c.format, c.line, exps, errs, col)
		}
	}
	for _, line := range []string{"// fencer finds the same count.", "// fencer today (one run each)", "// fencer's answer", "// fencer: same test as x.cs", "// the fencer: expect nothing here"} {
		exps, errs := Lookup("cs").Expectations("f", []byte(line+"\n"))
		if len(exps) != 0 || len(errs) != 0 {
			t.Errorf("%q: %v %v", line, exps, errs)
		}
	}
}

// fakeEditor is a reader that edits fences and can write store fences.
type fakeEditor struct{ store bool }

func (fakeEditor) Format() string { return "fake" }
func (fakeEditor) Parse(string, []byte) (*cs.System, error) {
	return nil, nil
}
func (fakeEditor) InsertFences(src []byte, _ []*cs.Site) ([]byte, error) { return src, nil }
func (fakeEditor) ParseWith(string, []byte, cs.Options) (*cs.System, error) {
	return nil, nil
}
func (f fakeEditor) StoreFences() (bool, string) { return f.store, "no store fence" }
func (fakeEditor) EditFences(src []byte, _, _, _ []*cs.Site) ([]byte, error) {
	return src, nil
}

// A format's fence kinds and removal follow what its reader can do.
func TestReaderCapabilities(t *testing.T) {
	if k := readerKinds(fakeEditor{store: true}); strings.Join(k, ",") != "full,store" || !readerRemoves(fakeEditor{}) {
		t.Errorf("editor with store fences: %v", k)
	}
	if k := readerKinds(fakeEditor{}); strings.Join(k, ",") != "full" || readerNoStore(fakeEditor{}) != "no store fence" || readerNoStore(fakeEditor{store: true}) != "" {
		t.Errorf("editor without store fences: %v", k)
	}
	if k := readerKinds(nil); strings.Join(k, ",") != "full" || readerRemoves(nil) {
		t.Errorf("plain reader: %v", k)
	}
}
