package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShowCSReadsBack prints every C benchmark with show --cs and checks
// that verify gives the printed program the verdict (exit code) of the C
// file: the printed program is .cs and means the same (issue 37: a thread
// function started twice was printed "process worker[0] {", which the .cs
// reader refuses).
func TestShowCSReadsBack(t *testing.T) {
	files, _ := filepath.Glob(bench("c/*.c"))
	files = append(files, filepath.Join("testdata", "showcs", "instances_args.c"))
	if len(files) < 10 {
		t.Fatalf("only %d C files", len(files))
	}
	dir := t.TempDir()
	for _, f := range files {
		printed, stderr, code := fencer(t, "show", "--cs", f)
		if code != 0 {
			t.Errorf("show --cs %s: exit %d: %s", f, code, stderr)
			continue
		}
		cs := filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".c")+".cs")
		if err := os.WriteFile(cs, []byte(printed), 0o644); err != nil {
			t.Fatal(err)
		}
		_, cerr, want := fencer(t, "verify", f)
		out, serr, got := fencer(t, "verify", cs)
		if got != want || got > 1 {
			t.Errorf("verify %s: exit %d, its show --cs: exit %d\n%s%s%s", f, want, got, cerr, out, serr)
		}
	}
	// The instances of a function started with different arguments are
	// processes of their own, and the forbidden state names them.
	out, _, _ := fencer(t, "show", "--cs", filepath.Join("testdata", "showcs", "instances_args.c"))
	for _, want := range []string{"process worker_0 {", "process worker_1 {", "forbidden worker_0@go, worker_1@go;"} {
		if !strings.Contains(out, want) {
			t.Errorf("show --cs instances_args.c: no %q in\n%s", want, out)
		}
	}
}
