package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 26 item 10: among minimum fence sets, the one that runs fewest
// fences. mp_array under PSO needs one fence, in the for body (run once
// per iteration) or after the loop (run once): insert picks the point
// after the loop, and --all lists the body as the other set. The same in
// C (cfront unrolls the loop itself and tells cs the copies), with a bare
// and a braced body.
func TestFewestFencesExecuted(t *testing.T) {
	stdout, stderr, code := fencer(t, "insert", "--model", "pso", "--all", bench("mp_array.cs"))
	want := "with 1 fence (a minimum):\n  " + bench("mp_array.cs") + ":26: after for (k in 0..N-1) …\nother minimum set 2 of 2 (verified):\n  " + bench("mp_array.cs") + ":27: after buf[k] = k + 1;\n"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Fatalf("mp_array.cs: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "    buf[k] = k + 1;\n  fence;\n  ready = 1;") {
		t.Errorf("mp_array.cs: the fence is not after the loop:\n%s", stdout)
	}
	_, stderr, code = fencer(t, "insert", "--model", "pso", "--kinds", "full,store", bench("mp_array.cs"))
	if code != 0 || !strings.Contains(stderr, ":26: fence store; after for (k in 0..N-1) …\n") {
		t.Errorf("mp_array.cs --kinds full,store: exit %d\n%s", code, stderr)
	}

	const c = `#include <assert.h>
#include <pthread.h>
volatile int buf[3], ready;
static void *w(void *a) {
  (void)a;
  for (int k = 0; k < 3; k++)
    BODY
  ready = 1;
  return NULL;
}
static void *r(void *a) {
  (void)a;
  if (ready == 1)
    assert(buf[0] == 1 && buf[1] == 2 && buf[2] == 3);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, w, NULL);
  pthread_create(&b, NULL, r, NULL);
  return 0;
}
`
	for _, body := range []string{"buf[k] = k + 1;", "{ buf[k] = k + 1; }"} {
		file := filepath.Join(t.TempDir(), "mp_array.c")
		if err := os.WriteFile(file, []byte(strings.Replace(c, "BODY", body, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := fencer(t, "insert", "--model", "pso", "--all", file)
		want := "with 1 fence (a minimum):\n  " + file + ":6: after for (int k = 0; k < 3; k++) …\nother minimum set 2 of 2 (verified):\n  " + file + ":7: after buf[k] = k + 1;\n"
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d\n%s", body, code, stderr)
		}
		if !strings.Contains(stdout, "    "+body+"\n  atomic_thread_fence(memory_order_seq_cst);\n  ready = 1;") {
			t.Errorf("%s: the fence is not after the loop:\n%s", body, stdout)
		}
		checkPatchedC(t, stdout, "pso")
	}
}

// checkPatchedC compiles a C file that fencer insert wrote with gcc
// -std=gnu11 -pthread -c and verifies it under model with fencer verify.
func checkPatchedC(t *testing.T, patched, model string) {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "patched.c")
	if err := os.WriteFile(file, []byte(patched), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-std=gnu11", "-pthread", "-c", file, "-o", filepath.Join(dir, "patched.o")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s\n%s", err, out, patched)
	}
	if _, stderr, code := fencer(t, "verify", "--model", model, file); code != 0 {
		t.Errorf("fencer verify --model %s on the patched file: exit %d\n%s", model, code, stderr)
	}
}
