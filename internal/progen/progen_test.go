package progen

import (
	"fmt"
	"testing"

	"fencer/cs"
	"fencer/internal/refsem"
)

// Every program of the four families parses (Ring's also for refsem,
// whose minimum fence count is its reference), and a seed always gives
// the same program.
func TestProgramsParse(t *testing.T) {
	for seed := int64(1); seed <= 300; seed++ {
		for name, gen := range map[string]func(int64) string{"Program": Program, "Accesses": Accesses, "Ring": Ring, "Weak": Weak, "LoopRing": LoopRing} {
			src := gen(seed)
			if again := gen(seed); again != src {
				t.Fatalf("%s(%d) is not deterministic", name, seed)
			}
			if _, err := cs.Parse(fmt.Sprintf("%s_%d.cs", name, seed), []byte(src)); err != nil {
				t.Fatalf("%s(%d) does not parse: %v\n%s", name, seed, err, src)
			}
			if name == "Ring" || name == "LoopRing" {
				if _, err := refsem.Compile("ring.cs", []byte(src)); err != nil {
					t.Fatalf("Ring(%d): refsem: %v\n%s", seed, err, src)
				}
			}
		}
	}
}
