package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --reconsider and --kinds store on the formats of the readers (issue 26,
// item 2): they work where the format can express the fence (a JSON report
// is written), and exit 2 with the reason where it cannot (a store fence
// in an x86 litmus test).
func TestReaderKinds(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "mp.rmm")
	if err := os.WriteFile(mp, []byte("forbidden * BAD\ndata x = 0 : [0:1] y = 0 : [0:1]\n"+
		"process text write: x := 1; write: y := 1\nprocess text read: y = 1; read: x = 0; BAD: nop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "mp.json")
	out, errOut, code := fencer(t, "insert", mp, "--model", "pso", "--kinds", "full,store", "--json", report)
	if code != 0 || !strings.Contains(out, "write: x := 1; ssfence; write: y := 1") {
		t.Errorf("rmm --kinds full,store: exit %d\n%s%s", code, out, errOut)
	}
	var r struct {
		Verdict string
		Fences  []struct{ Kind string }
	}
	if b, err := os.ReadFile(report); err != nil || json.Unmarshal(b, &r) != nil || r.Verdict != "correct" || len(r.Fences) != 1 || r.Fences[0].Kind != "store" {
		t.Errorf("report %+v (%v)", r, err)
	}
	sb := filepath.Join(dir, "sb.litmus")
	if err := os.WriteFile(sb, []byte("X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MFENCE | MFENCE ;\n"+
		" MOV EAX,[y] | MOV EAX,[x] ;\n MFENCE | MFENCE ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = fencer(t, "insert", "--reconsider", "--json", report, sb)
	if code != 0 || strings.Count(out, "MFENCE") != 2 || !strings.Contains(errOut, "fence removed") {
		t.Errorf("litmus --reconsider: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = fencer(t, "insert", "--kinds", "full,store", sb)
	if code != 2 || !strings.Contains(errOut, "--kinds store: an x86 litmus test has no store fence to write") {
		t.Errorf("litmus --kinds store: exit %d, want 2\n%s", code, errOut)
	}
}
