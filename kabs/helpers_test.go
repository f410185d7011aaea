package kabs

import (
	"testing"

	"fencer/cs"
)

func parse(t *testing.T, name, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return sys
}
