package cs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var errorRx = regexp.MustCompile(`/\* ERROR "((?:[^"\\]|\\.)*)" \*/`)

// expectedErrors returns, per line, the regexp of the /* ERROR "rx" */
// comment on that line.
func expectedErrors(t *testing.T, src []byte) map[int]*regexp.Regexp {
	want := map[int]*regexp.Regexp{}
	for i, line := range strings.Split(string(src), "\n") {
		m := errorRx.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rx, err := regexp.Compile(strings.ReplaceAll(m[1], `\"`, `"`))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		want[i+1] = rx
	}
	return want
}

// TestErrors parses every file in testdata/errors and checks that the
// errors reported are exactly those announced by /* ERROR "rx" */ comments
// on the lines where they occur.
func TestErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.cs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedErrors(t, src)
			sys, err := Parse(path, src)
			if err == nil {
				t.Fatalf("no error (want %d)", len(want))
			}
			if sys != nil {
				t.Errorf("a System along with errors")
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error is a %T, not an ErrorList", err)
			}
			for _, e := range list {
				if e.Pos.Filename != path {
					t.Errorf("error in file %q: %v", e.Pos.Filename, e)
				}
				rx, ok := want[e.Pos.Line]
				switch {
				case !ok:
					t.Errorf("unexpected error: %v", e)
				case !rx.MatchString(e.Msg):
					t.Errorf("%v: does not match %q", e, rx)
				}
				delete(want, e.Pos.Line)
			}
			for line, rx := range want {
				t.Errorf("%s:%d: missing error %q", path, line, rx)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	_, err := Parse("f.cs", []byte("shared x;\nprocess P {\n  x = y;\n}\n"))
	if err == nil || err.Error() != "f.cs:3:7: undefined: y" {
		t.Errorf("err = %v", err)
	}
	_, err = ParseFile("testdata/does-not-exist.cs")
	if err == nil {
		t.Errorf("no error for a missing file")
	}
}

// TestShortValid lists one-liners that must parse.
func TestShortValid(t *testing.T) {
	for _, src := range []string{
		"process P { }",
		"process P { ; }",
		"process P { skip; }",
		"process P { local r; r = -(-3); assume(!(r == 3) || true); }",
		"shared cas; process P { local r; r = cas; r = cas(cas, 0, 1); }",
		"const N = 2; shared a[N] = N; process P[i in 0..N - 1] { a[N - 1 - i] = a[i % N]; }",
		"process P { local r; if (r) if (r) r = 1; else r = 2; }",
		"process P { L: if (*) goto L; else { goto M; } M: skip; }",
		"process P { local r; while (1) { r = r + 1; } }",
		"process P { local r; r = 1 / -1 + 7 % -2 + -7 / 2; assume(r == 1 + (-1) - 3); }",
		"shared x; process P { atomic { x = 1; assert(x == 1); if (*) skip; else x = 2; } }",
		"process P { end: skip; } forbidden P@end;",
		"process P { L: L2: skip; } forbidden P@L2;",
	} {
		if _, err := Parse("short.cs", []byte(src)); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestShortInvalid lists one-liners that must not parse, with the expected
// message.
func TestShortInvalid(t *testing.T) {
	for _, tt := range []struct{ src, rx string }{
		{"", "program has no processes"},
		{"process P { x = 1; }", "undefined: x"},
		{"process P { local r; r = *; assume(*); }", `\* is only allowed`},
		{"process P", "expected '{'"},
		{"process P {", "expected '}'"},
		{"process P { } }", "expected declaration"},
		{"process P { L: }", "expected statement after label"},
		{"process P[i in 0..1 { }", "expected ']'"},
		{"forbidden P@;", "expected identifier"},
		{"process P { local r; r = swap(1, 2); }", "first argument of swap must be a shared variable"},
		{"shared x; process P { x = 1 + ; }", "expected expression"},
		{"process P { goto; }", "expected identifier"},
		{"shared x = y; process P { }", "undefined: y"},
		{"const N = -9223372036854775807 - 2; process P { }", "constant overflow"},
	} {
		_, err := Parse("short.cs", []byte(tt.src))
		if err == nil || !regexp.MustCompile(tt.rx).MatchString(err.Error()) {
			t.Errorf("%q: err = %v, want %q", tt.src, err, tt.rx)
		}
	}
}

// TestStarOutsideCondition checks that a "*" anywhere but as a condition or
// a right-hand side gives one error, at the "*", and that it is the
// parser's: ParseProgram reports it before any lowering.
func TestStarOutsideCondition(t *testing.T) {
	const msg = "* is only allowed as a condition of if or while, or as a right-hand side"
	for _, tt := range []struct{ src, pos string }{
		{"process P { local r;\n  assume(*); }", "s.cs:2:10"},
		{"process P { local r;\n  r = * + 1; }", "s.cs:2:7"},
		{"process P { local r;\n  if (* && r) skip; }", "s.cs:2:7"},
		{"shared x; process P {\n  x = -*; }", "s.cs:2:8"},
		{"shared x; process P { local r;\n  r = swap(x, *); }", "s.cs:2:15"},
		{"shared x; process P { local r;\n  atomic { assume(* == r); } }", "s.cs:2:19"},
		{"const N = *; process P { }", "s.cs:1:11"},
		{"shared a[*]; process P { }", "s.cs:1:10"},
	} {
		want := tt.pos + ": " + msg
		_, err := Parse("s.cs", []byte(tt.src))
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Error() != want {
			t.Errorf("%q: Parse: %v, want only %s", tt.src, err, want)
		}
		if _, err := ParseProgram(NewFile("s.cs", []byte(tt.src))); err == nil || err.Error() != want {
			t.Errorf("%q: ParseProgram: %v, want %s", tt.src, err, want)
		}
	}
}

// TestScopeEndsWithProcess checks that the locals and the template index of
// a process are not in scope in the template range of the next one.
func TestScopeEndsWithProcess(t *testing.T) {
	s := mustParse(t, "const N = 2;\nprocess A { local N; skip; }\nprocess P[i in 0..N-1] { skip; }\n")
	if len(s.Procs) != 3 {
		t.Errorf("%d processes, want A, P[0], P[1]", len(s.Procs))
	}
	_, err := Parse("s.cs", []byte("process P[i in 0..1] { skip; }\nprocess Q[j in 0..i] { skip; }\n"))
	if err == nil || err.Error() != "s.cs:2:19: undefined: i" {
		t.Errorf("err = %v, want s.cs:2:19: undefined: i", err)
	}
}

// With KeepComments the scanner returns each comment as a COMMENT token
// with its whole text (an unterminated one to the end), and the other
// tokens as without it.
func TestScannerKeepComments(t *testing.T) {
	src := []byte("x = 1; // one\n/* two */ L: /* three")
	var s Scanner
	s.Init(src, nil)
	s.KeepComments()
	var got []string
	for {
		pos, tok, lit := s.Scan()
		if tok == EOF {
			break
		}
		if tok == COMMENT {
			got = append(got, fmt.Sprintf("%d:%q", pos.Offset(), lit))
		} else {
			got = append(got, tok.String())
		}
	}
	want := `IDENT = INT ; 7:"// one" 14:"/* two */" IDENT : 27:"/* three"`
	if strings.Join(got, " ") != want {
		t.Errorf("tokens %s, want %s", strings.Join(got, " "), want)
	}
	if s.ErrorCount != 1 {
		t.Errorf("%d errors, want 1 (comment not terminated)", s.ErrorCount)
	}
}
