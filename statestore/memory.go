package statestore

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// MachineMemory returns the memory this process may use, in bytes: the
// machine's total memory (MemTotal of /proc/meminfo), or the limit of its
// cgroup (v2 memory.max, v1 memory.limit_in_bytes) when that is lower; 0
// when neither can be read (not Linux). A default for --max-memory is a
// fraction of it.
func MachineMemory() int64 {
	total := memTotal("/proc/meminfo")
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(p); err == nil {
			if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (total == 0 || v < total) {
				total = v
			}
		}
	}
	return total
}

// memTotal reads the MemTotal line of a meminfo file (in kB), in bytes.
func memTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}
