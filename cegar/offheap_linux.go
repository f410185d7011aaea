//go:build linux

package cegar

import "syscall"

// adviseHuge asks the system to back b with huge pages where it can.
func adviseHuge(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
