package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Message passing under arm: verify shows the execution (exit 1), insert
// raises the flag's write to release and its read to acquire (cheapest),
// the patched program verifies (exit 0), and the JSON reports match the
// schema (checkReportsOf).
func TestWeakMP(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := fencer(t, "verify", "--model", "arm", "--json", filepath.Join(dir, "v.json"), bench("mp.cs"))
	if code != 1 || !strings.Contains(out, "unsafe under arm") || !strings.Contains(out, "-fr->") || !strings.Contains(out, "reads from init") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, stderr)
	}
	patched := filepath.Join(dir, "mp.cs")
	_, stderr, code = fencer(t, "insert", "--model", "arm", "-o", patched, "--json", filepath.Join(dir, "i.json"), bench("mp.cs"))
	if code != 0 || !strings.Contains(stderr, "with 2 changes") {
		t.Fatalf("insert: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(patched)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "release ready = 1;") || !strings.Contains(string(b), "acquire r1 = ready;") {
		t.Errorf("patched:\n%s", b)
	}
	out, stderr, code = fencer(t, "verify", "--model", "arm", patched)
	if code != 0 || !strings.Contains(out, "correct under arm") {
		t.Errorf("verify patched: exit %d\n%s%s", code, out, stderr)
	}
	// --all: the other sets of two changes, each verified.
	_, stderr, code = fencer(t, "insert", "--model", "arm", "--all", "--json", filepath.Join(dir, "a.json"), bench("mp.cs"))
	if code != 0 || !strings.Contains(stderr, "other set 4 of 4 (verified)") || !strings.Contains(stderr, "dmb ishst after data = 1;") {
		t.Errorf("insert --all: exit %d\n%s", code, stderr)
	}
	// --robust: the fewest barriers for SC-equivalence.
	_, stderr, code = fencer(t, "insert", "--model", "arm", "--robust", "-o", filepath.Join(dir, "r.cs"), "--json", filepath.Join(dir, "r.json"), bench("mp.cs"))
	if code != 0 || !strings.Contains(stderr, "robust under arm with 2 barriers") || !strings.Contains(stderr, "dmb ishld after r1 = ready;") {
		t.Errorf("insert --robust: exit %d\n%s", code, stderr)
	}
	// --reconsider: the fences of the source are candidates like any point.
	fenced := filepath.Join(dir, "fenced.cs")
	if err := os.WriteFile(fenced, []byte("shared x, y;\nprocess P { x = 1; fence; y = 1; fence; }\n"+
		"process Q { local r1, r2; r1 = y; fence; r2 = x; assert(!(r1 == 1 && r2 == 0)); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = fencer(t, "insert", "--model", "riscv", "--reconsider", fenced)
	if code != 0 || strings.Count(stderr, "fence removed") != 3 || !strings.Contains(out, "fence store;") || !strings.Contains(out, "fence load;") || strings.Contains(out, "fence;") {
		t.Errorf("insert --reconsider: exit %d\n%s%s", code, out, stderr)
	}
	// riscv has no acquire load: two barriers, as a diff.
	out, stderr, code = fencer(t, "insert", "--model", "riscv", "--diff", bench("mp.cs"))
	if code != 0 || !strings.Contains(out, "+  fence store;") || !strings.Contains(out, "+  fence load;") {
		t.Errorf("insert riscv: exit %d\n%s%s", code, out, stderr)
	}
}

// What is not there refuses plainly; an SC bug stays one.
func TestWeakRefusals(t *testing.T) {
	for _, args := range [][]string{
		{"insert", "--model", "arm", "--reconsider", bench("litmus/arm/mp.litmus")},
		{"run", "--hw", "--model", "arm", bench("mp.cs")},
	} {
		_, stderr, code := fencer(t, args...)
		if code != 2 || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	_, stderr, code := fencer(t, "insert", "--model", "arm", bench("sc_bug.cs"))
	if code != 1 || !strings.Contains(stderr, "sc-bug") {
		t.Errorf("sc_bug: exit %d: %s", code, stderr)
	}
}

// check runs arm, riscv and rmo expectation lines.
func TestWeakCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mp.cs")
	src := "shared x, y;\nprocess P { x = 1; y = 1; }\nprocess Q { local a, b; a = y; b = x; assert(a == 0 || b == 1); }\n" +
		"// fencer: expect tso safe\n// fencer: expect arm fences=2\n// fencer: expect riscv fences=2\n// fencer: expect rmo fences=1\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := fencer(t, "check", path)
	if code != 1 || !strings.Contains(out, "3 passed, 1 failed") || !strings.Contains(out, "expect rmo fences=1: got fences=2") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}

// Every C benchmark with an arm expectation, patched by insert --model arm,
// cross-compiles for AArch64 and has its changes in the object code: each
// barrier's DMB (an acquire fence is DMB ISHLD, a release or seq_cst one
// DMB ISH) and each raised access's LDAR or STLR. It runs where Debian's
// gcc-aarch64-linux-gnu is installed.
func TestWeakCrossCompileBenchmarks(t *testing.T) {
	gcc, err := exec.LookPath("aarch64-linux-gnu-gcc")
	if err != nil {
		t.Skip("no aarch64-linux-gnu-gcc (apt-get install gcc-aarch64-linux-gnu)")
	}
	objdump, err := exec.LookPath("aarch64-linux-gnu-objdump")
	if err != nil {
		t.Skip("no aarch64-linux-gnu-objdump")
	}
	files, _ := filepath.Glob(bench("c/*.c"))
	dir := t.TempDir()
	checked := 0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		if !strings.Contains(string(src), "// fencer: expect arm fences=") {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(f), ".c")
		patched := filepath.Join(dir, base+".c")
		report := filepath.Join(dir, base+".json")
		if _, stderr, code := fencer(t, "insert", "-q", "--model", "arm", "-o", patched, "--json", report, f); code != 0 {
			t.Errorf("%s: insert: exit %d: %s", f, code, stderr)
			continue
		}
		obj := filepath.Join(dir, base+".o")
		if out, err := exec.Command(gcc, "-std=gnu11", "-O2", "-pthread", "-c", patched, "-o", obj).CombinedOutput(); err != nil {
			t.Errorf("%s: the patched file does not compile for AArch64: %v\n%s", f, err, out)
			continue
		}
		dis, err := exec.Command(objdump, "-d", obj).Output()
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Fences []struct {
				Kind      string `json:"kind"`
				FenceKind string `json:"fence_kind"`
				Order     string `json:"order"`
			} `json:"fences"`
		}
		b, _ := os.ReadFile(report)
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		text := string(dis)
		for _, ch := range rep.Fences {
			var want string
			switch {
			case ch.Kind == "order" && ch.Order == "acquire":
				want = "ldar"
			case ch.Kind == "order":
				want = "stlr"
			case ch.FenceKind == "load":
				want = "dmb\tishld"
			default:
				want = "dmb\tish"
			}
			if !strings.Contains(text, want) {
				t.Errorf("%s: a %s %s%s change, but no %q in the object code", f, ch.Kind, ch.FenceKind, ch.Order, want)
			}
		}
		checked++
	}
	if checked < 5 {
		t.Errorf("only %d benchmarks checked", checked)
	}
}
