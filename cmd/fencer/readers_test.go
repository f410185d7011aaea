package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"fencer/formats"
)

// TestRmmFormsAgree checks that every Memorax model of benchmarks/rmm
// names its .cs form ("// same test: ../X.cs") and states the same
// expectations (make test runs fencer check on both).
func TestRmmFormsAgree(t *testing.T) {
	files, _ := filepath.Glob("../../benchmarks/rmm/*.rmm")
	if len(files) < 5 {
		t.Fatalf("want at least 5 .rmm models, found %d", len(files))
	}
	same := regexp.MustCompile(`// same test: (\S+)`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := same.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s: no // same test: line", f)
			continue
		}
		pair := filepath.Join(filepath.Dir(f), string(m[1]))
		csSrc, err := os.ReadFile(pair)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		e1, _ := formats.ByExtension(f).Expectations(f, src)
		e2, _ := formats.ByExtension(pair).Expectations(pair, csSrc)
		if a, b := expectationTexts(e1), expectationTexts(e2); len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("%s expects %v, %s expects %v", f, a, pair, b)
		}
	}
}

// expectationTexts are the expectation lines of the store-buffer models
// (the .rmm and x86 .litmus forms have no others: a Memorax model or an
// x86 test is not about AArch64).
func expectationTexts(es []formats.Expectation) (out []string) {
	for _, e := range es {
		if e.Model.Axioms() == nil {
			out = append(out, e.Text())
		}
	}
	slices.Sort(out)
	return out
}

// TestLitmusFormsAgree checks that every .litmus test of
// benchmarks/litmus/x86 names its .cs form ("(* same test: ../X.cs *)")
// and states the same expectations, and that fencer check passes on both
// (verdicts and fence counts of both forms equal to the stated ones).
func TestLitmusFormsAgree(t *testing.T) {
	files, _ := filepath.Glob("../../benchmarks/litmus/x86/*.litmus")
	if len(files) < 7 {
		t.Fatalf("want at least 7 .litmus tests, found %d", len(files))
	}
	same := regexp.MustCompile(`\(\* same test: (\S+) \*\)`)
	var all []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := same.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s: no (* same test: ... *) line", f)
			continue
		}
		pair := filepath.Join(filepath.Dir(f), string(m[1]))
		csSrc, err := os.ReadFile(pair)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		e1, errs1 := formats.ByExtension(f).Expectations(f, src)
		e2, errs2 := formats.ByExtension(pair).Expectations(pair, csSrc)
		if len(errs1)+len(errs2) > 0 || len(e1) == 0 {
			t.Fatalf("%s: %v %v (%d expectations)", f, errs1, errs2, len(e1))
		}
		if a, b := expectationTexts(e1), expectationTexts(e2); !slices.Equal(a, b) {
			t.Errorf("%s expects %v, %s expects %v", f, a, pair, b)
		}
		all = append(all, f, pair)
	}
	if testing.Short() {
		return
	}
	if out, errOut, code := fencer(t, append([]string{"check", "-j", "1"}, all...)...); code != 0 {
		t.Fatalf("fencer check: exit %d\n%s%s", code, out, errOut)
	}
}

// TestLitmusVerifyInsert runs verify and insert on SB as herd would be
// asked: the outcome is reachable under TSO (exit 1, with a trace), not
// under SC (exit 0), and insert puts an MFENCE in each column.
func TestLitmusVerifyInsert(t *testing.T) {
	sb := bench("litmus/x86/sb.litmus")
	if out, _, code := fencer(t, "verify", "--model", "sc", sb); code != 0 || !strings.Contains(out, "correct") {
		t.Errorf("verify sc: exit %d\n%s", code, out)
	}
	if out, _, code := fencer(t, "verify", "--model", "tso", sb); code != 1 || !strings.Contains(out, "MOV EAX,[y]") || !strings.Contains(out, "read y = 0") || !strings.Contains(out, "violated: exists (0:EAX=0 /\\ 1:EAX=0) (line 11)") {
		t.Errorf("verify tso: exit %d, want 1 with a trace\n%s", code, out)
	}
	out, errOut, code := fencer(t, "insert", sb)
	want := " MOV [x],$1  | MOV [y],$1  ;\n MFENCE      | MFENCE      ;\n MOV EAX,[y] | MOV EAX,[x] ;\n"
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(errOut, "sb.litmus:9: after MOV [x],$1") {
		t.Errorf("insert: exit %d\n%s\n%s", code, out, errOut)
	}
	// The same with --format and standard input.
	if _, _, code := fencer(t, "verify", "--format", "litmus", "--model", "sc", sb); code != 0 {
		t.Errorf("verify --format litmus: exit %d", code)
	}
}

// TestRmmInsert checks the patched .rmm: a "fence;" line after the write,
// indented like it, the rest unchanged, and a second insert adds nothing.
func TestRmmInsert(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.rmm")
	src := "forbidden CS CS\nprocess(2)\ndata\n  flag = 0 : [0:1]\nregisters\n  $b = 0\ntext\nL:  write: flag[my] := 1; /* own */\n    read: $b := flag[0];\n    if $b != 0 then goto L;\nCS: write: flag[my] := 0;\n    goto L\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := fencer(t, "insert", path)
	want := strings.Replace(src, "/* own */\n", "/* own */\n    fence;\n", 1)
	if code != 0 || out != want || !strings.Contains(errOut, "d.rmm:8: after write: flag[my] := 1") {
		t.Fatalf("insert: exit %d\n%s\nwant\n%s\n%s", code, out, want, errOut)
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if out2, _, code := fencer(t, "insert", path); code != 0 || out2 != out {
		t.Errorf("second insert: exit %d\n%s", code, out2)
	}
	// Errors are positioned in the .rmm file.
	bad := filepath.Join(dir, "bad.rmm")
	os.WriteFile(bad, []byte("forbidden CS\nprocess\ntext\n  write: x := 1\n"), 0o644)
	if _, errOut, code := fencer(t, "verify", bad); code != 2 || !strings.Contains(errOut, "bad.rmm:4:10: x is not declared in data") {
		t.Errorf("bad model: exit %d, %s", code, errOut)
	}
}

// TestLitmusQuantifiers: ~exists asks about the same outcome as exists,
// forall about the negation of its condition (through the observer).
func TestLitmusQuantifiers(t *testing.T) {
	dir := t.TempDir()
	table := "{ x=0; y=0; }\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\n"
	for _, c := range []struct {
		cond    string
		sc, tso int
	}{
		{"~exists (0:EAX=0 /\\ 1:EAX=0)", 0, 1},
		{"forall (0:EAX=1 \\/ 1:EAX=1)", 0, 1},
		{"forall (x=1 /\\ y=1)", 0, 0},
		{"exists (0:EAX=1 /\\ 1:EAX=1)", 1, 1},
		{"exists (~(0:EAX=1) /\\ 1:EAX!=1)", 0, 1},
	} {
		path := filepath.Join(dir, "t.litmus")
		if err := os.WriteFile(path, []byte("X86 T\n"+table+c.cond+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, m := range []struct {
			model string
			want  int
		}{{"sc", c.sc}, {"tso", c.tso}} {
			if out, errOut, code := fencer(t, "verify", "--model", m.model, path); code != m.want {
				t.Errorf("%s under %s: exit %d, want %d\n%s%s", c.cond, m.model, code, m.want, out, errOut)
			}
		}
	}
}

// --domains chooses how a Memorax model's domains are read: Memorax's
// semantics by default (a write that leaves the domain waits), strict
// (the write is a bad state with its trace); other formats refuse it.
func TestRmmDomainsOption(t *testing.T) {
	file := bench("rmm/constructs/dom_write_block.rmm")
	if out, errs, code := fencer(t, "verify", "--model", "sc", file); code != 0 || !strings.Contains(out, "correct under sc") {
		t.Errorf("default: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := fencer(t, "verify", file, "--model", "sc", "--domains", "strict"); code != 1 || !strings.Contains(out, "sc-bug under sc") {
		t.Errorf("--domains strict: exit %d\n%s%s", code, out, errs)
	}
	if _, errs, code := fencer(t, "verify", "--domains=lax", file); code != 2 || !strings.Contains(errs, `--domains "lax": want memorax, strict`) {
		t.Errorf("--domains=lax: exit %d\n%s", code, errs)
	}
	if _, errs, code := fencer(t, "verify", "--domains", "strict", bench("sb.cs")); code != 2 || !strings.Contains(errs, "--domains is not an option of cs input") {
		t.Errorf("--domains on .cs: exit %d\n%s", code, errs)
	}
}

// --explain names a store fence as one, in its heading and in the witness
// traces of the other fences, where it is installed.
func TestExplainStoreFences(t *testing.T) {
	_, errs, code := fencer(t, "insert", "--model", "pso", "--kinds", "full,store", "--explain", "-q", bench("seqlock.cs"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{"fence 1 of 2: ../../benchmarks/seqlock.cs:39: fence store; after seq = s + 1;",
		"fence store; (inserted after seq = s + 1;)", "fence store: later writes stay behind the buffered ones"} {
		if !strings.Contains(errs, want) {
			t.Errorf("no %q in\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "fence; (inserted after seq = s + 1;)") {
		t.Errorf("a store fence shown as fence;\n%s", errs)
	}
}
