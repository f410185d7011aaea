package statestore

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestMemTotal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "meminfo")
	if err := os.WriteFile(p, []byte("MemFree:  100 kB\nMemTotal:       24576000 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := memTotal(p); got != 24576000*1024 {
		t.Errorf("memTotal = %d", got)
	}
	if got := memTotal(filepath.Join(t.TempDir(), "none")); got != 0 {
		t.Errorf("missing file: %d", got)
	}
	if runtime.GOOS == "linux" && MachineMemory() <= 0 {
		t.Errorf("MachineMemory() = %d on Linux", MachineMemory())
	}
}
