package main

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal (golang.org/x/sys, as
// logrus does; golang.org/x/term is not in the module cache).
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}

// termWidth returns the width of the terminal fd in columns, or 0.
func termWidth(fd uintptr) int {
	ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
