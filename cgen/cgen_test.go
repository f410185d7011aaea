package cgen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/litmus"
	"fencer/rmm"
)

// benchmarks are every program the project ships, in every format.
func benchmarks(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"*.cs", "regressions/*.cs", "litmus/*.cs", "litmus/x86/*.litmus", "rmm/*.rmm", "scale/*.cs"} {
		m, err := filepath.Glob(filepath.Join("..", "benchmarks", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d benchmark files found", len(files))
	}
	return files
}

func parse(t *testing.T, file string) *cs.System {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var sys *cs.System
	switch filepath.Ext(file) {
	case ".litmus":
		sys, err = litmus.Parse(file, src)
	case ".rmm":
		sys, err = rmm.Parse(file, src)
	default:
		sys, err = cs.Parse(file, src)
	}
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func needGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc on this host")
	}
}

// gcc checks the C files with gcc and the flags, all in one run.
func gcc(t *testing.T, flags []string, files []string) {
	t.Helper()
	cmd := exec.Command("gcc", append(flags, files...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(flags, " "), err, out.String())
	}
}

// Every benchmark's harness and plain program is C that gcc accepts, and
// the harness names every bad state.
func TestEveryBenchmarkCompiles(t *testing.T) {
	needGCC(t)
	dir := t.TempDir()
	var harnesses, plains []string
	for i, f := range benchmarks(t) {
		sys := parse(t, f)
		h, err := NewHarness(sys)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if h.Threads != len(sys.Procs) || len(h.Bad) < len(sys.Bad) || h.Forbidden != len(sys.Bad) {
			t.Errorf("%s: %d threads, %d bad states for %d processes and %d forbidden", f, h.Threads, len(h.Bad), len(sys.Procs), len(sys.Bad))
		}
		p, err := Plain(sys)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		hf, pf := filepath.Join(dir, "h"+itoa(i)+".c"), filepath.Join(dir, "p"+itoa(i)+".c")
		if err := os.WriteFile(hf, h.Source, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(pf, p, 0o644); err != nil {
			t.Fatal(err)
		}
		harnesses, plains = append(harnesses, hf), append(plains, pf)
	}
	gcc(t, []string{"-fsyntax-only", "-std=gnu11", "-pthread", "-Werror=implicit-function-declaration"}, harnesses)
	gcc(t, []string{"-fsyntax-only", "-std=gnu11", "-pthread", "-Werror=implicit-function-declaration"}, plains)
}

func itoa(i int) string { return strconv.Itoa(i) }

// The harness of sb and the plain program of peterson compile to objects
// with the flags fencer run and fencer show --c document.
func TestObjects(t *testing.T) {
	needGCC(t)
	dir := t.TempDir()
	h, err := NewHarness(parse(t, "../benchmarks/sb.cs"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Plain(parse(t, "../benchmarks/peterson.cs"))
	if err != nil {
		t.Fatal(err)
	}
	hf, pf := filepath.Join(dir, "h.c"), filepath.Join(dir, "p.c")
	os.WriteFile(hf, h.Source, 0o644)
	os.WriteFile(pf, p, 0o644)
	gcc(t, []string{"-O2", "-pthread", "-std=gnu11", "-fwrapv", "-o", filepath.Join(dir, "h")}, []string{hf})
	gcc(t, []string{"-std=gnu11", "-pthread", "-c", "-o", filepath.Join(dir, "p.o")}, []string{pf})
}

func parseSrc(t *testing.T, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// swap, fetch_add and cas become XCHG, LOCK XADD and LOCK CMPXCHG; an
// atomic block on one variable a CMPXCHG loop; one over two variables the
// harness lock, with a warning.
func TestAtomicSteps(t *testing.T) {
	sys := parseSrc(t, `shared x, y, z, w;
process P { local a, b, c, d;
  a = swap(x, 2); b = fetch_add(y, 3); c = cas(z, 0, 1);
  atomic { d = w; assume(d == 0); w = d + 5; }
  atomic { x = 1; y = 2; }
}`)
	h, err := NewHarness(sys)
	if err != nil {
		t.Fatal(err)
	}
	src := string(h.Source)
	for _, want := range []string{"__atomic_exchange_n(&s_x, 2L", "__atomic_fetch_add(&s_y, 3L", "__atomic_compare_exchange_n(&s_z, &exp",
		"__atomic_compare_exchange_n(&s_w, &old", "hw_lock();"} {
		if !strings.Contains(src, want) {
			t.Errorf("harness lacks %q", want)
		}
	}
	if len(h.Warnings) != 1 || !strings.Contains(h.Warnings[0], "t.cs:5:") {
		t.Errorf("warnings %q, want one for the block of line 5", h.Warnings)
	}
	p, err := Plain(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"atomic_exchange(&x, 2L)", "atomic_fetch_add(&y, 3L)", "atomic_compare_exchange_strong(&z, &exp",
		"__VERIFIER_atomic_begin();"} {
		if !strings.Contains(string(p), want) {
			t.Errorf("plain program lacks %q", want)
		}
	}
	// fencer's C reader reads an atomic section of straight-line code only.
	if strings.Contains(string(p), "do {") || strings.Contains(string(p), "for (;;)") {
		t.Errorf("a loop in the plain program's atomic sections:\n%s", p)
	}
}

// The loop of Peterson's lock that writes is bounded by --iterations, its
// busy-wait is not.
func TestShape(t *testing.T) {
	sys := parse(t, "../benchmarks/peterson.cs")
	p := sys.Procs[0]
	sh := analyse(p)
	work, spin := 0, 0
	for ei, b := range sh.back {
		if b && sh.work[ei] {
			work++
		} else if b {
			spin++
		}
	}
	if work != 1 || spin != 1 {
		t.Errorf("peterson: %d writing loops and %d busy-waits, want 1 and 1", work, spin)
	}
}

// A labelled skip stays a step of its own: the label is not the point the
// else branch jumps to (sdm_8_1_mp.cs read back as C was unsafe without).
func TestPlainLabelledSkip(t *testing.T) {
	p, err := Plain(parse(t, "../benchmarks/litmus/sdm_8_1_mp.cs"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(p), "\na1:\n\t;\n") {
		t.Errorf("a1 is not a labelled empty statement:\n%s", p)
	}
}

// The plain program keeps the bad states, the fences and the asserts.
func TestPlain(t *testing.T) {
	sys := parseSrc(t, `shared flag[2], turn;
process P[i in 0..1] { local r;
  flag[i] = 1; fence; r = flag[1 - i]; assert(r <= 1);
cs: skip;
}
mutex cs;`)
	p, err := Plain(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"atomic_long flag[2] = {0, 0};", "// fencer: forbidden P_0@cs, P_1@cs",
		"atomic_thread_fence(memory_order_seq_cst);", "assert((r <= 1L));", "\ncs:\n", "pthread_create(&t[1], NULL, P_1, NULL);"} {
		if !strings.Contains(string(p), want) {
			t.Errorf("plain program lacks %q:\n%s", want, p)
		}
	}
}

// A System with a step on a variable it does not declare is an error of
// NewHarness and Plain, not a panic.
func TestUntranslatable(t *testing.T) {
	sys := parseSrc(t, `shared x; process P { local r; r = x; }`)
	bad := *sys
	p := *sys.Procs[0]
	p.Edges = append([]cs.Edge(nil), p.Edges...)
	p.Edges[0].Op.Shared = "nosuch"
	bad.Procs = []*cs.Process{&p}
	if _, err := NewHarness(&bad); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("NewHarness: %v", err)
	}
	if _, err := Plain(&bad); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("Plain: %v", err)
	}
}
