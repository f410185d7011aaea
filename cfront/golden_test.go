package cfront

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
	"fencer/races"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// golden compares got with the file path+".golden" (rewritten with
// -update).
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	g := path + ".golden"
	if *update {
		if err := os.WriteFile(g, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(g)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: got\n%s\nwant\n%s", path, got, want)
	}
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	out, err := filepath.Glob(filepath.Join("testdata", dir, "*.c"))
	if err != nil || len(out) == 0 {
		t.Fatalf("no files in testdata/%s: %v", dir, err)
	}
	return out
}

func parseFile(t *testing.T, r Reader, path string) (*cs.System, []byte, error) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := r.Parse(filepath.Base(path), src)
	return sys, src, err
}

// TestRefusals: every file of testdata/errors is refused with positioned
// errors (a cs.ErrorList), never a panic; the text is the golden file.
func TestRefusals(t *testing.T) {
	for _, path := range files(t, "errors") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			sys, _, err := parseFile(t, Reader{}, path)
			if err == nil {
				t.Fatalf("parsed: %d processes", len(sys.Procs))
			}
			list, ok := err.(cs.ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a cs.ErrorList", err, err)
			}
			var b strings.Builder
			for _, e := range list {
				if e.Pos.Line == 0 {
					t.Errorf("error without a position: %v", e)
				}
				if strings.Contains(e.Msg, ".go:") {
					t.Errorf("cc's internal position in %q", e.Msg)
				}
				b.WriteString(e.Error() + "\n")
			}
			golden(t, path, []byte(b.String()))
		})
	}
}

// TestWarnings: the warnings of each file of testdata/warnings, the
// translation's and the data-race check's (Races).
func TestWarnings(t *testing.T) {
	for _, path := range files(t, "warnings") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			sys, src, err := parseFile(t, Reader{}, path)
			if err != nil {
				t.Fatal(err)
			}
			rc, err := Reader{}.Races(context.Background(), filepath.Base(path), src, races.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if len(sys.Warnings)+len(rc.Warnings) == 0 {
				t.Fatal("no warning")
			}
			var b strings.Builder
			for _, w := range sys.Warnings {
				b.WriteString(w.Pos.String() + ": warning: " + w.Msg + "\n")
			}
			for _, w := range rc.Warnings {
				b.WriteString(w.String() + "\n")
			}
			golden(t, path, []byte(b.String()))
		})
	}
}

// TestPositions: the automata of each file of testdata/positions, every
// edge with its file:line of the C file, and the .cs program fencer
// analyses.
func TestPositions(t *testing.T) {
	for _, path := range files(t, "positions") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			sys, src, err := parseFile(t, Reader{}, path)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := sys.Format(&b); err != nil {
				t.Fatal(err)
			}
			for _, p := range sys.Procs {
				for _, e := range p.Edges {
					if e.Pos.IsValid() && (e.Pos.Offset() < 0 || e.Pos.Offset() >= len(src)) {
						t.Errorf("%s: edge %v at offset %d outside the file", p.Name, e.Op, e.Pos.Offset())
					}
				}
			}
			golden(t, path, b.Bytes())
		})
	}
}

// TestPatch: a fence after every C statement that writes shared memory,
// in each style (by the file name: _gcc, _asm, else c11); the result is
// the golden file, compiles with gcc, reads back with the same sites and
// the new fences as fence statements, and is verified: fenced after every
// write, it has under TSO the verdict the original has under SC.
func TestPatch(t *testing.T) {
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	for _, path := range files(t, "patch") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			r := Reader{Style: StyleC11}
			switch {
			case strings.HasSuffix(path, "_gcc.c"):
				r.Style = StyleGCC
			case strings.HasSuffix(path, "_asm.c"):
				r.Style = StyleAsm
			}
			sys, src, err := parseFile(t, r, path)
			if err != nil {
				t.Fatal(err)
			}
			sites := sys.WriteSites()
			if len(sites) == 0 {
				t.Fatal("no write sites")
			}
			patched, err := r.InsertFences(src, sites)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, path, patched)
			compile(t, patched)
			psys, err := r.Parse(filepath.Base(path), patched)
			if err != nil {
				t.Fatalf("the patched file does not read: %v", err)
			}
			if got, want := len(psys.WriteSites()), len(sites); got != want {
				t.Errorf("patched: %d write sites, want %d", got, want)
			}
			fences := 0
			for _, p := range psys.Procs {
				for _, e := range p.Edges {
					if e.Op.Kind == cs.OpFence && e.Op.Fence == cs.FullFence {
						fences++
					}
				}
			}
			if fences == 0 {
				t.Error("the patched file has no fence")
			}
			ctx := context.Background()
			sc, err := cegar.Verify(ctx, sys, sol, cegar.Options{Model: memmodel.SC})
			if err != nil {
				t.Fatal(err)
			}
			tso, err := cegar.Verify(ctx, psys, sol, cegar.Options{Model: memmodel.TSO})
			if err != nil || tso.Verdict != sc.Verdict || sc.Verdict == cegar.Unknown {
				t.Errorf("the patched file is %v under TSO (%v), the original %v under SC", tso.Verdict, err, sc.Verdict)
			}
		})
	}
}

// compile compiles a C file with gcc -std=gnu11 -pthread -c.
func compile(t *testing.T, src []byte) {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "patched.c")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gcc, "-std=gnu11", "-pthread", "-Wall", "-Werror=implicit-function-declaration", "-c", in, "-o", filepath.Join(dir, "patched.o")).CombinedOutput()
	if err != nil {
		t.Fatalf("gcc: %v\n%s\n%s", err, out, src)
	}
}
