//go:build !unix

package cegar

// mapMemory maps nothing where there is no mmap: the blocks come from the
// Go heap.
func mapMemory(n int) ([]byte, bool) { return nil, false }

func unmapMemory(b []byte) {}
