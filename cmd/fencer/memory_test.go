package main

import (
	"strings"
	"testing"
)

// --max-memory reads amounts with binary units and refuses anything else.
func TestParseMemory(t *testing.T) {
	good := map[string]int64{"512MB": 512 << 20, "2GB": 2 << 30, "2g": 2 << 30, "1.5GiB": 3 << 29,
		"100": 100, "64kb": 64 << 10, " 3 MB ": 3 << 20, "1TB": 1 << 40, "10b": 10}
	for s, want := range good {
		if got, err := parseMemory(s); err != nil || got != want {
			t.Errorf("parseMemory(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "MB", "-1GB", "0", "0MB", "1XB", "NaNGB", "infGB", "1e30GB", "2 GB GB"} {
		if got, err := parseMemory(s); err == nil {
			t.Errorf("parseMemory(%q) = %d, want an error", s, got)
		}
	}
	if defaultMaxMemory() <= 0 {
		t.Errorf("default --max-memory %d", defaultMaxMemory())
	}
}

// A run that hits --max-memory ends unknown (exit 3) with what it knew and
// the flag named; a bad amount is a usage error (exit 2).
func TestMaxMemoryFlag(t *testing.T) {
	_, stderr, code := fencer(t, "insert", "--max-memory", "1KB", bench("peterson.cs"))
	if code != 3 || !strings.Contains(stderr, "memory limit reached") || !strings.Contains(stderr, "(--max-memory)") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = fencer(t, "verify", "--max-memory", "lots", bench("peterson.cs"))
	if code != 2 || !strings.Contains(stderr, "--max-memory") {
		t.Errorf("bad amount: exit %d, stderr:\n%s", code, stderr)
	}
}
