//go:build !linux

package main

// isTerminal is false off Linux: no progress line there.
func isTerminal(fd uintptr) bool { return false }

// termWidth is unknown off Linux.
func termWidth(fd uintptr) int { return 0 }
