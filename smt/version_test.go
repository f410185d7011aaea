package smt

import (
	"regexp"
	"testing"
)

func TestVersion(t *testing.T) {
	if v := Version(); !regexp.MustCompile(`^4\.\d+\.\d+\.\d+$`).MatchString(v) {
		t.Errorf("Version() = %q, want 4.x.y.z", v)
	}
}
