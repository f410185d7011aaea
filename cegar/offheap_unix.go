//go:build unix

package cegar

import "syscall"

// mapMemory maps n bytes of zeroed, private memory from the system.
func mapMemory(n int) ([]byte, bool) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	return b, err == nil
}

// unmapMemory returns memory from mapMemory to the system.
func unmapMemory(b []byte) { _ = syscall.Munmap(b) }
