package smallgen

import (
	"math/rand"
	"testing"

	"fencer/cs"
	"fencer/internal/refsem"
)

// TestProgramsParse: every generated program is valid for both front
// ends (fencer's and the reference semantics').
func TestProgramsParse(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		src := Program(rand.New(rand.NewSource(seed)))
		if _, err := cs.Parse("gen.cs", []byte(src)); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if _, err := refsem.Compile("gen.cs", []byte(src)); err != nil {
			t.Fatalf("seed %d: refsem: %v\n%s", seed, err, src)
		}
	}
}
