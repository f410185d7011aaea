package cgen

import (
	"os"
	"testing"

	"fencer/cs"
)

func TestScratch(t *testing.T) {
	f := os.Getenv("F")
	if f == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(f)
	sys, err := cs.Parse(f, src)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHarness(sys)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/hwt/h.c", h.Source, 0o644)
	p, err := Plain(sys)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/hwt/p.c", p, 0o644)
	t.Log(h.Bad, h.Warnings)
}
