package litmus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
)

// The catalogue of benchmarks/litmus/x86/herd: tests written for fencer in
// herd's format, one or more per instruction form of X86 and X86_64, each
// with its verdict under SC and TSO (the outcomes herd's x86-TSO gives:
// store buffering is allowed under TSO and not under SC, message passing
// and locked instructions forbid their outcome, non-atomic read-modify-
// writes lose updates). Every test is read and its verdicts are those of
// its expectation lines (what fencer check runs).
func TestHerdCatalogue(t *testing.T) {
	files, _ := filepath.Glob("../benchmarks/litmus/x86/herd/*.litmus")
	if len(files) < 29 { // 29 when this was written
		t.Fatalf("%d tests in benchmarks/litmus/x86/herd, want at least 29", len(files))
	}
	expect := regexp.MustCompile(`\(\* fencer: expect (sc|tso) (safe|bug|fences=\d+) \*\)`)
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	dialects := map[string]int{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := Parse(f, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		dialects[strings.Fields(string(src))[0]]++
		es := expect.FindAllSubmatch(src, -1)
		if len(es) != 2 {
			t.Errorf("%s: %d expectations, want one for sc and one for tso", f, len(es))
		}
		for _, e := range es {
			m, _ := memmodel.Parse(string(e[1]))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			r, _, err := cegar.Insert(ctx, sys, sol, cegar.Options{Model: m})
			cancel()
			if err != nil {
				t.Errorf("%s %s: %v", f, m, err)
				continue
			}
			got := "unknown: " + r.Reason
			switch {
			case r.Verdict == cegar.SCBug:
				got = "bug"
			case r.Verdict == cegar.Correct && len(r.Fences) == 0:
				got = "safe"
			case r.Verdict == cegar.Correct:
				got = fmt.Sprintf("fences=%d", len(r.Fences))
			}
			if got != string(e[2]) {
				t.Errorf("%s under %s: %s, want %s", f, m, got, e[2])
			}
		}
	}
	if dialects["X86"] < 10 || dialects["X86_64"] < 10 {
		t.Errorf("tests per dialect %v, want at least 10 of each", dialects)
	}
}

// What is not understood is refused at its position, never guessed: a
// register in brackets without a known address, a name that is no
// register, an address register that is written or used as a value, an
// offset outside a location, a size or an instruction fencer does not
// model.
func TestRefusals(t *testing.T) {
	x86 := func(init, code string) string {
		return "X86 T\n{ " + init + " }\n P0 ;\n " + code + " ;\nexists (0:EAX=1)\n"
	}
	x64 := func(init, code string) string {
		return "X86_64 T\n{ " + init + " }\n P0 ;\n " + code + " ;\nexists (0:rax=1)\n"
	}
	for _, tc := range []struct{ src, want string }{
		{x86("", "MOV EAX,[EBX]"), "t.litmus:4:11: EBX does not hold an address known statically"},
		{x86("", "MOV FOO,$1"), "t.litmus:4:6: FOO is not a register of X86"},
		{x86("", "MOV [x],FOO"), "t.litmus:4:10: FOO is not a register of X86"},
		{x86("0:FOO=1;", "MOV EAX,$1"), "t.litmus:2:5: FOO is not a register of X86"},
		{x86("0:EBX=x;", "MOV EBX,$1"), "t.litmus:2:9: 0:EBX holds the address of x and P0 writes EBX"},
		{x86("0:EBX=x;", "MOV [y],EBX"), "t.litmus:4:10: EBX holds the address of x"},
		{x86("", "SHL EAX,$1"), "t.litmus:4:2: instruction SHL is not read"},
		{x86("", "JMP L9"), "t.litmus:4:6: label L9 is not defined in P0"},
		{x86("", "RET"), "t.litmus:4:2: instruction RET is not read"},
		{x86("", "MOV EAX,[x],$1"), "t.litmus:4:2: MOV takes 2 operands, not 3"},
		{x86("", "LOCK MOV [x],$1"), "t.litmus:4:7: LOCK MOV is not read"},
		{x64("", "movl $1,%foo"), "t.litmus:4:11: %foo is not a general-purpose register of X86_64"},
		{x64("", "movl $-1,%eax"), "t.litmus:4:7: a negative value in a 32-bit register is not read"},
		{x64("", "movb $256,(x)"), "t.litmus:4:7: $256 does not fit the 8 bits of movb"},
		{x64("int64_t t[2]; 0:rbx=t;", "movq $1,16(%rbx)"), "t.litmus:4:10: offset 16 is not an element of t"},
		{x64("0:rbx=x;", "movq $1,4(%rbx)"), "t.litmus:4:10: offset 4 from x: x is not an array"},
		{x64("", "movl %cs:0(%rax),%eax"), "t.litmus:4:8: %cs is not a general-purpose register of X86_64"},
		{x64("", "jle L0"), "t.litmus:4:6: label L0 is not defined in P0"},
		{x64("", "movl $1,(x)\n exists (x=1)"), "t.litmus:5:2: expected ';' at the end of the row"},
		{x64("", "andq %rbx,%rax"), "t.litmus:4:2: instruction andq is not read (X86_64: MOV, ADD, SUB, XOR, OR, AND, SHL"},
		{x64("", "shl %ecx,%eax"), "t.litmus:4:6: shl by a register or memory operand is not read"},
		{x64("", "shl $63,%eax"), "t.litmus:4:6: shl by 63 is not read: only counts 0 to 62"},
		{x64("", "ret $8"), "t.litmus:4:2: ret takes 0 operands, not 1"},
		{x64("0:rbx=x;", "and $3,%rbx"), "t.litmus:2:9: 0:RBX holds the address of x and P0 writes RBX"},
		{x64("", "lock shl $1,(x)"), "t.litmus:4:7: LOCK shl is not read"},
		{"X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\nfilter (x=1)\nfilter (x=1)\nexists (x=1)\n", "t.litmus:6:1: a second filter clause"},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s...", tc.src, err, tc.want)
		}
	}
}

// A register in brackets is the location whose address it holds, not a
// shared variable named after the register.
func TestAddressRegister(t *testing.T) {
	src := "X86 T\n{ x=0; 0:EBX=x; }\n P0 | P1 ;\n MOV [EBX],$1 | MOV EAX,[x] ;\nexists (1:EAX=1)\n"
	prog, err := Program("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var shared []string
	for _, d := range prog.Decls {
		if v, ok := d.(*cs.VarsDecl); ok && v.Tok == cs.SHARED {
			for _, sp := range v.Specs {
				shared = append(shared, sp.Name.Name)
			}
		}
	}
	if strings.Join(shared, ",") != "x" {
		t.Errorf("shared variables %v, want x only", shared)
	}
	sys, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ws := sys.WriteSites(); len(ws) != 1 || ws[0].Text != "MOV [EBX],$1" {
		t.Errorf("write sites %v", ws)
	}
}

// Fences are written back in the file's own syntax: MFENCE in X86,
// mfence in X86_64.
func TestFenceSyntax(t *testing.T) {
	for _, tc := range []struct{ src, fence string }{
		{"X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\n MOV EAX,[y] ;\nexists (0:EAX=0)\n", " MFENCE "},
		{"X86_64 T\n{ }\n P0 ;\n movl $1,(x) ;\n movl (y),%eax ;\nexists (0:rax=0)\n", " mfence "},
	} {
		sys, err := Parse("t.litmus", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		out, err := InsertFences([]byte(tc.src), sys.WriteSites())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), tc.fence) {
			t.Errorf("%s", out)
		}
		psys, err := Parse("t.litmus", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		n := 0
		for _, p := range psys.Procs {
			for _, e := range p.Edges {
				if e.Op.Kind == cs.OpFence && e.Op.Fence == cs.FullFence {
					n++
				}
			}
		}
		if n != 1 {
			t.Errorf("%d fences in the patched test\n%s", n, out)
		}
	}
}
