package cfront

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fencer/memmodel"
)

// bigSection is seven independent branches (128 paths: more than
// splitPaths) on variables only its own thread uses, then body.
func bigSection(me, body string) string {
	var b strings.Builder
	b.WriteString("  __VERIFIER_atomic_begin();\n")
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&b, "  if (%s_n%d == 0) %s_m%d = 1; else %s_m%d = 2;\n", me, i, me, i, me, i)
	}
	b.WriteString(body)
	b.WriteString("  __VERIFIER_atomic_end();\n")
	return b.String()
}

func svProgram(a, b string) string {
	var decls strings.Builder
	for _, me := range []string{"a", "b"} {
		for i := 0; i < 7; i++ {
			fmt.Fprintf(&decls, "int %s_n%d, %s_m%d;\n", me, i, me, i)
		}
	}
	return "#include <pthread.h>\nextern void reach_error(void);\nextern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n" +
		"extern void __VERIFIER_assume(int);\nint c, flag;\n" + decls.String() +
		"void *ta(void *arg) {\n" + a + "  return 0;\n}\n" +
		"void *tb(void *arg) {\n" + b + "  return 0;\n}\n" +
		"int main(void) { pthread_t h, k; pthread_create(&h, 0, ta, 0); pthread_create(&k, 0, tb, 0); pthread_join(h, 0); pthread_join(k, 0);\n" +
		"  __VERIFIER_atomic_begin();\n  if (c != 2) reach_error();\n  __VERIFIER_atomic_end();\n  return 0;\n}\n"
}

// TestSplitAtomicSameVerdicts: with Reader.SplitAtomic a section of more
// than splitPaths paths runs as steps under a lock (when no other thread
// touches its variables outside atomic steps); the explicit checker under
// SC finds the same verdict as with the sections atomic.
func TestSplitAtomicSameVerdicts(t *testing.T) {
	inc := "  c = c + 1;\n"
	small := "  __VERIFIER_atomic_begin();\n  c = c + 1;\n  __VERIFIER_atomic_end();\n"
	cases := []struct {
		name   string
		a, b   string
		split  bool // whether a section is split
		unsafe bool
	}{
		{"both big", bigSection("a", inc), bigSection("b", inc), true, false},
		{"big and small", bigSection("a", inc), small, true, false},
		{"big and plain", bigSection("a", inc), inc, false, true},
		{"read in the middle", bigSection("a", "  c = c + 1;\n  flag = 1;\n  c = c + 1;\n  c = c - 1;\n"),
			"  __VERIFIER_atomic_begin();\n  if (flag == 1 && c == 2) reach_error();\n  c = c + 1;\n  __VERIFIER_atomic_end();\n", true, false},
		{"assume in the section", bigSection("a", "  __VERIFIER_assume(flag == 1);\n  c = c + 1;\n"),
			"  __VERIFIER_atomic_begin();\n  flag = 1;\n  c = c + 1;\n  __VERIFIER_atomic_end();\n", true, false},
		{"assume never true", bigSection("a", "  __VERIFIER_assume(flag == 2);\n  c = c + 1;\n"),
			"  __VERIFIER_atomic_begin();\n  flag = 1;\n  __VERIFIER_atomic_end();\n  __VERIFIER_atomic_begin();\n  if (c == 0) reach_error();\n  c = 2;\n  __VERIFIER_atomic_end();\n", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(svProgram(c.a, c.b))
			var verdicts []memmodel.Verdict
			for _, r := range []Reader{{}, {SplitAtomic: true}} {
				sys, err := r.Parse("split.c", src)
				if err != nil {
					t.Fatal(err)
				}
				split := false
				for _, v := range sys.Shared {
					split = split || v.Name == lockVar
				}
				if split != (c.split && r.SplitAtomic) {
					t.Errorf("SplitAtomic=%v: split %v, want %v", r.SplitAtomic, split, c.split && r.SplitAtomic)
				}
				res, err := memmodel.NewConcrete(sys, memmodel.SC).Explore(context.Background(), memmodel.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				verdicts = append(verdicts, res.Verdict)
			}
			want := memmodel.Safe
			if c.unsafe {
				want = memmodel.Unsafe
			}
			if verdicts[0] != want || verdicts[1] != want {
				t.Errorf("verdicts atomic %v, split %v; want %v", verdicts[0], verdicts[1], want)
			}
		})
	}
}

// TestPointersAndUnused: file-scope variables of types fencer does not
// model are ignored while unused (a note) and refused where used; a
// pointer with one target, and a pointer parameter given &x, are read.
func TestPointersAndUnused(t *testing.T) {
	head := "#include <pthread.h>\nint x, y;\n"
	tail := "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n"
	cases := []struct{ decls, body, want string }{
		{"int *p; double d; union { int a; } u;\n", "x = 1;", "note: p is not used: ignored (pointer variable p); note: d is not used: ignored (variable d of type double); note: u is not used: ignored (union u)"},
		{"int *p;\n", "p = &x; y = *p;", ""},
		{"int *p;\nvoid set(int *q) { *q = 2; }\n", "p = &x; set(&y); set(p);", ""},
		{"int *p;\n", "p = &x; p = &y; y = *p;", "p.c:3:5: unsupported: pointer variable p"},
		{"int *p = &x;\n", "y = *p;", "p.c:3:5: unsupported: pointer variable p"},
		{"int *p;\n", "p = &x; if (p) y = 1;", "p.c:4:32: unsupported: the value of pointer p (fencer models *p and p = &x only)"},
		{"double d;\n", "d = 1;", "p.c:3:8: unsupported: variable d of type double"},
		{"void set(int *q) { *q = 2; }\n", "int v = 0; set(&v); y = v;", ""},
		{"void set(int *q) { q = 0; }\n", "int v = 0; set(&v);", "p.c:3:20: unsupported: pointer parameter q used other than as *q"},
		{"int f(int a, ...) { return a; }\n", "x = 1;", ""},
		{"int f(int a, ...) { return a; }\n", "x = f(1, 2);", "p.c:3:1: unsupported: variadic function f"},
	}
	for _, c := range cases {
		src := head + c.decls + "void *t(void *a) { " + c.body + " return 0; }\n" + tail
		sys, err := Reader{}.Parse("p.c", []byte(src))
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			var notes []string
			for _, n := range sys.Notes {
				notes = append(notes, "note: "+n.Msg)
			}
			got = strings.Join(notes, "; ")
		}
		if got != c.want {
			t.Errorf("%s%s\ngot  %q\nwant %q", c.decls, c.body, got, c.want)
		}
	}
}
