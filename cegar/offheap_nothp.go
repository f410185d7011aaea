//go:build unix && !linux

package cegar

// adviseHuge leaves b as it is: huge pages are asked for on Linux only.
func adviseHuge(b []byte) {}
