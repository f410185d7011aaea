package cfront

import (
	"os"
	"path/filepath"
	"testing"

	"fencer/cs"
)

// FuzzParse: no input makes the C reader panic; an error is a positioned
// cs.ErrorList (or the configuration error of a machine without gcc).
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"../benchmarks/c", "testdata/errors", "testdata/warnings", "testdata/patch"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte("int main(void) { return 0; }"))
	// Without system headers: faster to mutate (cc scans no pthread.h).
	const decls = "typedef unsigned long pthread_t; int pthread_create(pthread_t *, void *, void *(*)(void *), void *); int pthread_join(pthread_t, void **);\n"
	f.Add([]byte(decls + "volatile int x, y; int r0, r1;\nvoid *a(void *p) { x = 1; r0 = y; return 0; }\nvoid *b(void *p) { y = 1; r1 = x; return 0; }\nint main(void) { pthread_t s, t; pthread_create(&s, 0, a, 0); pthread_create(&t, 0, b, 0); pthread_join(s, 0); pthread_join(t, 0); assert(r0 || r1); return 0; }\n"))
	f.Add([]byte(decls + "volatile int f[2], turn;\nstatic void *w(void *arg) { int me = (int)(long)arg; for (int i = 0; i < 2; i++) { f[me] = 1; turn = me; while (f[1 - me] && turn == me) ; f[me] = 0; } switch (me) { case 0: f[0]++; break; default: f[1]--; } return 0; }\nint main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, (void *)(long)i); return 0; }\n"))
	f.Add([]byte(decls + "_Atomic int c; int a[4];\nstatic int g(int v) { return v % 4; }\nstatic void *w(void *arg) { int k = 0; do { a[g(k)] = k ? 1 : 2; k += 3; } while (k < 9); c += a[k % 4]; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sys, err := Reader{}.Parse("fuzz.c", src)
		if err == nil {
			if sys == nil {
				t.Fatal("nil system without an error")
			}
			// The write sites patch back into something that reads.
			if sites := sys.WriteSites(); len(sites) > 0 {
				if _, err := (Reader{}).InsertFences(src, sites); err != nil {
					t.Fatalf("patching: %v", err)
				}
			}
			return
		}
		if list, ok := err.(cs.ErrorList); ok {
			for _, e := range list {
				if e.Pos.Filename == "" {
					t.Fatalf("error without a file: %v", e)
				}
			}
		}
	})
}
