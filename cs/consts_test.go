package cs

import (
	"strings"
	"testing"
)

func TestOptionsConsts(t *testing.T) {
	src := []byte("const N = 2;\nconst M = N + 1;\nshared flag[N];\nprocess P[i in 0..M-1] { flag[i % N] = 1; }\n")
	sys, err := ParseWith("a.cs", src, Options{Consts: map[string]int64{"N": 4}})
	if err != nil {
		t.Fatal(err)
	}
	if len(sys.Shared) != 4 || len(sys.Procs) != 5 {
		t.Errorf("N=4: %d shared, %d processes; want 4 and 5 (M = N + 1 sees the new N)", len(sys.Shared), len(sys.Procs))
	}
	sys, err = ParseWith("a.cs", src, Options{})
	if err != nil || len(sys.Shared) != 2 || len(sys.Procs) != 3 {
		t.Errorf("no override: %v", err)
	}
	_, err = ParseWith("a.cs", src, Options{Consts: map[string]int64{"K": 1, "flag": 2}})
	// Both are at 1:1; the error list keeps one error per line.
	want := "a.cs:1:1: cannot set K=1: K is not a const of the program (its consts: N, M)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("unknown const: %v, want %q", err, want)
	}
	_, err = ParseWith("b.cs", []byte("shared x;\nprocess P { x = 1; }\n"), Options{Consts: map[string]int64{"N": 3}})
	if err == nil || !strings.Contains(err.Error(), "b.cs:1:1: cannot set N=3: N is not a const of the program (the program declares no const)") {
		t.Errorf("no consts: %v", err)
	}
	// The declaration is still checked.
	_, err = ParseWith("c.cs", []byte("const N = 1 / 0;\nshared x;\nprocess P { x = N; }\n"), Options{Consts: map[string]int64{"N": 3}})
	if err == nil {
		t.Errorf("an invalid const declaration passed with an override")
	}
}

// A patched text is read again with the const settings of the program it
// patches: the final check of insert -D N=4 verifies the program with 4
// processes, not the file's N = 2.
func TestReparseKeepsConsts(t *testing.T) {
	src := []byte("const N = 2;\nshared flag[N];\nprocess P[i in 0..N-1] { flag[i] = 1; }\n")
	sys, err := ParseWith("a.cs", src, Options{Consts: map[string]int64{"N": 4}})
	if err != nil {
		t.Fatal(err)
	}
	patched := []byte(strings.Replace(string(src), "flag[i] = 1;", "flag[i] = 1; fence;", 1))
	back, err := sys.Reparse(patched)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Procs) != 4 || len(back.Shared) != 4 {
		t.Errorf("reparsed: %d processes, %d shared; want 4 and 4", len(back.Procs), len(back.Shared))
	}
	plain, _ := Parse("a.cs", src)
	if again, err := plain.Reparse(patched); err != nil || len(again.Procs) != 2 {
		t.Errorf("without settings: %v, %d processes", err, len(again.Procs))
	}
}
