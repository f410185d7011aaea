package cfront

import (
	"os"
	"testing"
	"time"
)

// TestTiming logs what the C layer costs on bakery.c: the host
// configuration (once per run) and a translation.
func TestTiming(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	src, err := os.ReadFile("../benchmarks/c/bakery.c")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := hostConfig(); err != nil {
		t.Fatal(err)
	}
	cfg := time.Since(start)
	var parses []time.Duration
	for i := 0; i < 5; i++ {
		s := append([]byte{}, src...)
		s = append(s, byte('\n'))
		for j := 0; j < i; j++ {
			s = append(s, '\n')
		}
		start = time.Now()
		if _, err := (Reader{}).Parse("bakery.c", s); err != nil {
			t.Fatal(err)
		}
		parses = append(parses, time.Since(start))
	}
	t.Logf("host configuration %v, parses %v", cfg, parses)
}
