package cs

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"",
	"process P { }",
	"shared x, y; process P { x = 1; r = y; } process Q { y = 1; assert(x == 0); }",
	"const N = 2; shared flag[N], turn; process P[i in 0..N-1] { local r; flag[i] = 1; turn = 1 - i; while (flag[1-i] == 1 && turn == 1-i) { } cs: flag[i] = 0; } mutex cs;",
	"shared x; process P { local r; atomic { if (x == 0) { x = 1; } else { assert(x == 1); } } r = cas(x, 0, 1); r = swap(x, r); r = fetch_add(x, -1); }",
	"process P { L: goto L; }",
	"process P { for (j in 0..3) for (k in j..3) skip; }",
	"shared x = *; process P[i in 0..1] { local c[2] = *; if (*) x = c[i]; else while (*) fence; } forbidden P[0]@a;",
	"process P { x = ((((1)))) }",
	"process P { atomic { while (1) { } } }",
	"process /* unterminated",
	"\x00\xff\xfe process",
	"process P { r = 99999999999999999999999; }",
	"const A = B; const B = A; process P { }",
}

// FuzzParse checks that no input makes Parse panic, and that every failure
// is a positioned ErrorList of at most MaxErrors entries.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, pattern := range []string{"testdata/*.cs", "testdata/errors/*.cs", "../benchmarks/*.cs"} {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkParse(t, src)
	})
}

func checkParse(t *testing.T, src []byte) {
	t.Helper()
	sys, err := Parse("fuzz.cs", src)
	if err == nil {
		if sys == nil {
			t.Fatal("nil System without an error")
		}
		checkInvariants(t, sys)
		var b strings.Builder
		sys.Format(&b)
		return
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T is not an ErrorList: %v", err, err)
	}
	if len(list) == 0 || len(list) > MaxErrors {
		t.Fatalf("%d errors", len(list))
	}
	for _, e := range list {
		if e.Pos.Filename != "fuzz.cs" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" {
			t.Fatalf("badly positioned error %q", e.Error())
		}
		if !strings.HasPrefix(e.Error(), "fuzz.cs:") {
			t.Fatalf("error text %q", e.Error())
		}
	}
}

func TestDeepNesting(t *testing.T) {
	const n = 100000
	inputs := map[string]string{
		"parens":  "process P { local r; r = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "; }",
		"open":    "process P { local r; r = " + strings.Repeat("(", n),
		"unary":   "process P { local r; r = " + strings.Repeat("-", n) + "1; }",
		"not":     "process P { assume(" + strings.Repeat("!", n) + "1); }",
		"blocks":  "process P { " + strings.Repeat("{", n) + strings.Repeat("}", n) + " }",
		"ifs":     "process P { " + strings.Repeat("if (1) ", n) + "skip; }",
		"elseifs": "process P { if (1) skip;" + strings.Repeat(" else if (1) skip;", n/2) + " }",
		"chain":   "process P { local r; r = 1" + strings.Repeat(" + 1", n) + "; }",
		"index":   "shared a[1]; process P { local r; r = " + strings.Repeat("a[", n) + "0" + strings.Repeat("]", n) + "; }",
		"labels":  "process P { " + strings.Repeat("L: ", n) + "skip; }",
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("deep.cs", []byte(src))
			if name == "labels" { // labels do not nest... but repeat
				if err == nil || !strings.Contains(err.Error(), "already defined") && !strings.Contains(err.Error(), "nesting") {
					t.Errorf("err = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "nesting too deep") {
				t.Errorf("err = %v", err)
			}
		})
	}
	// Just below the limit is fine.
	ok := "process P { local r; r = " + strings.Repeat("(", MaxDepth-10) + "1" + strings.Repeat(")", MaxDepth-10) + "; }"
	if _, err := Parse("ok.cs", []byte(ok)); err != nil {
		t.Errorf("%d parentheses: %v", MaxDepth-10, err)
	}
}

func TestGarbage(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("process P[i in 0..1]{ } shared x; local r; ()[]{};=+-*/%<>!&|:@.,0123456789 if while for else goto atomic cas( assert(")
	for i := 0; i < 500; i++ {
		n := rng.Intn(300)
		b := make([]byte, n)
		for j := range b {
			if i%2 == 0 {
				b[j] = byte(rng.Intn(256))
			} else {
				b[j] = alphabet[rng.Intn(len(alphabet))]
			}
		}
		checkParse(t, b)
	}
	// Mutations of valid programs.
	for _, seed := range fuzzSeeds {
		for i := 0; i < 50 && len(seed) > 0; i++ {
			b := []byte(seed)
			for k := 0; k < 3; k++ {
				b[rng.Intn(len(b))] = alphabet[rng.Intn(len(alphabet))]
			}
			checkParse(t, b)
		}
	}
}

func TestInputTooLarge(t *testing.T) {
	src := make([]byte, MaxInputSize+1)
	for i := range src {
		src[i] = ' '
	}
	_, err := Parse("big.cs", src)
	if err == nil || !strings.Contains(err.Error(), "input too large") {
		t.Errorf("err = %v", err)
	}
}
