//go:build unix

package cegar

import "syscall"

// mapMemory maps n bytes of zeroed, private memory from the system. A
// block of 2 MB or more is advised to be backed by huge pages (adviseHuge):
// the store's table and nodes are read at random, and with small pages
// nearly every read of a large exploration misses the TLB.
func mapMemory(n int) ([]byte, bool) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	if n >= 2<<20 {
		adviseHuge(b)
	}
	return b, true
}

// unmapMemory returns memory from mapMemory to the system.
func unmapMemory(b []byte) { _ = syscall.Munmap(b) }
