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
