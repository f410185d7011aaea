package litmus

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fencer/cs"
)

var fuzzSeeds = []string{
	"",
	"X86",
	"X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)",
	"X86 T\n{ int x = 1; 0:EBX=2; }\n P0 | P1 ;\n LOCK XADD [x],EBX | XCHG [x],EAX ;\n LOCK CMPXCHG [x],EBX | LOCK INC [x] ;\nforall (x=3 \\/ ~(0:EBX=1))",
	"X86 T\n{}\n P0 ;\n MOV [x],$-1 ;\n~exists (x=-1)",
	"X86 T (* open",
	"X86 T\n{}\n P0 | P1 ;\n MOV [x],$1 ;\nexists (x=1)",
	"X86 T\n{}\n P0 ;\n JNE L0 ;\nexists (x=1)",
	"ARM T\n{}\n",
	"X86 T\n{}\n P0 ;\n SFENCE ;\nexists (0:EAX=0)",
	"X86_64 T\n{ int64_t t[2]={1,-1}; 0:rax=t; 0:rbx=1; uint64_t y; }\n P0 | P1 ;\n movq 0(%rax,%rbx,8),%rcx | movl $0x1,(y) ;\n lock incq (y) | mfence ;\n L0: | xchgl (y),%eax ;\n cmpl $1,%ecx | jne L1 ;\n jne L0 | L1: ;\nfilter (0:rcx=-1)\nexists ([y]=2 /\\ 1:rax=1)",
	"X86 T\n{ 0:EBX=x; }\n P0 ;\n MOV [EBX],1 ;\n ADD [x],EAX ;\n XOR EAX,EAX ;\n CMP EAX,0 ;\n JE L ;\n SETNB [x] ;\n L: ;\n CMOVC ECX,[x] ;\n MFENCE ;\nexists (x=1)",
	"AArch64 MP\n{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X4=x; }\n P0 | P1 ;\n MOV W0,#1 | LDR W0,[X1] ;\n STR W0,[X1] | EOR W2,W0,W0 ;\n DMB SY | LDR W3,[X4,W2,SXTW] ;\n MOV W2,#1 | CBNZ W3,L0 ;\n STLR W2,[X3] | L0: LDAR W5,[X1] ;\nexists (1:X0=1 /\\ 1:X3=0)",
	"AArch64 X\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n L0: LDAXR W0,[X1] | MOV W2,#2 ;\n ADD W2,W0,#1 | SWPAL W2,W3,[X1] ;\n STLXR W3,W2,[X1] | CAS W4,W2,[X1] ;\n CBNZ W3,L0 | LDADDA W2,W6,[X1] ;\n CMP W3,#0 | STEOR W2,[X1] ;\n B.NE L0 | DMB ISHLD ;\nexists (x=2 \\/ 0:X0=0)",
	"RISCV T\n{ 0:x6=x; 0:x8=y; 1:x6=y; 1:x8=x; }\n P0 | P1 ;\n li x5,1 | lw x5,0(x6) ;\n sw x5,0(x6) | xor x7,x5,x5 ;\n fence w,w | add x9,x8,x7 ;\n sw.rl x5,0(x8) | lw.aq x10,0(x9) ;\n L1: lr.w x11,(x6) | amoswap.w.aqrl x12,x5,(x6) ;\n addi x11,x11,1 | fence.tso ;\n sc.w x13,x11,(x6) | beq x5,zero,L2 ;\n bne x13,x0,L1 | L2: ;\nexists (1:x5=1 /\\ 1:x10=0 /\\ y=1)",
	"AArch64 T\n{}\n P0 ;\n ISB ;\nexists (0:X0=0)",
	"RISCV T\n{ 0:a0=x; }\n P0 ;\n la a1,y ;\n sw a0,0(a1) ;\nexists (y=0)",
}

// FuzzParse checks that no input makes Parse panic, that every failure is
// one positioned error, and that InsertFences on every site gives a test
// that parses again with the same number of sites.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../benchmarks/litmus/x86/*.litmus")
	for _, dir := range []string{"x86/herd", "arm", "riscv"} {
		more, _ := filepath.Glob("../benchmarks/litmus/" + dir + "/*.litmus")
		files = append(files, more...)
	}
	for _, path := range files {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
	}
	posRE := regexp.MustCompile(`^fuzz\.litmus:\d+:\d+: `)
	f.Fuzz(func(t *testing.T, src []byte) {
		sys, err := Parse("fuzz.litmus", src)
		if err != nil {
			var list cs.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || !posRE.MatchString(list[0].Error()) {
				t.Fatalf("error not positioned: %v", err)
			}
			return
		}
		patched, err := InsertFences(src, sys.WriteSites())
		if err != nil {
			t.Fatal(err)
		}
		psys, err := Parse("fuzz.litmus", patched)
		if err != nil {
			t.Fatalf("patched test does not parse: %v\n%s", err, patched)
		}
		if len(psys.WriteSites()) != len(sys.WriteSites()) {
			t.Fatalf("%d sites before, %d after patching", len(sys.WriteSites()), len(psys.WriteSites()))
		}
		// Every MFENCE removed (insert --reconsider): the test still
		// parses and has none left.
		rsys, err := Reader{}.ParseWith("fuzz.litmus", src, cs.Options{Reconsider: true})
		if err != nil {
			t.Fatalf("reads without Reconsider, not with it: %v", err)
		}
		var fences []*cs.Site
		for _, s := range rsys.Sites {
			if s.Fence {
				fences = append(fences, s)
			}
		}
		removed, err := EditFences(src, nil, nil, fences)
		if err != nil {
			t.Fatal(err)
		}
		rsys, err = Reader{}.ParseWith("fuzz.litmus", removed, cs.Options{Reconsider: true})
		if err != nil {
			t.Fatalf("test without its fences does not parse: %v\n%s", err, removed)
		}
		for _, s := range rsys.Sites {
			if s.Fence {
				t.Fatalf("a fence is left:\n%s", removed)
			}
		}
		checkChanges(t, src, sys)
	})
}

// checkChanges makes every change EditChanges takes on a test (a barrier
// at each site, each access raised) alone and all together: the result
// parses, with as many accesses as before and a fence step for each
// barrier.
func checkChanges(t *testing.T, src []byte, sys *cs.System) {
	var all []cs.Change
	for _, s := range sys.Sites {
		for _, k := range []cs.FenceKind{cs.FullFence, cs.LoadFence, cs.StoreFence, cs.TSOFence} {
			c := cs.Change{Site: s, Kind: k}
			if _, err := EditChanges(src, []cs.Change{c}); err == nil {
				all = append(all, c)
			}
		}
	}
	accesses := func(s *cs.System) (n int) {
		for _, p := range s.Procs {
			for _, e := range p.Edges {
				switch e.Op.Kind {
				case cs.OpRead, cs.OpWrite, cs.OpAtomic:
					n++
				}
			}
		}
		return n
	}
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			for _, a := range []cs.Ann{cs.Acquire, cs.AcquirePC, cs.Release} {
				c := cs.Change{Pos: e.Pos, Ann: a}
				if _, err := EditChanges(src, []cs.Change{c}); err == nil {
					all = append(all, c)
				}
			}
		}
	}
	out, err := EditChanges(src, all)
	if err != nil {
		t.Fatalf("each change alone is taken, not all together: %v", err)
	}
	psys, err := Parse("fuzz.litmus", out)
	if err != nil {
		t.Fatalf("the changed test does not parse: %v\n%s", err, out)
	}
	if accesses(psys) != accesses(sys) {
		t.Fatalf("%d accesses before, %d after the changes:\n%s", accesses(sys), accesses(psys), out)
	}
}

// TestErrors checks the position and text of some errors.
func TestErrors(t *testing.T) {
	for src, want := range map[string]string{
		"ARM T\n{}\n": "t.litmus:1:1: expected X86",
		"X86 T\n{}\n P0 | P1 ;\n MOV [x],$1 ;\nexists (x=1)": "t.litmus:4:13: row has 1 columns, the test has 2 threads",
		"X86 T\n{}\n P0 ;\n MOV [x] $1 ;\nexists (x=1)":      "t.litmus:4:10: expected ',' between operands",
	} {
		_, err := Parse("t.litmus", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s...", src, err, want)
		}
	}
}

// TestDiyHeader reads a test as diy7 writes them (key=value lines, a
// condition on its own line) with a register written in two cases.
func TestDiyHeader(t *testing.T) {
	src := "X86 SB\n\"Fre PodWR Fre PodWR\"\nCycle=Fre PodWR Fre PodWR\nRelax=\nGenerator=diy7 (version 7.51+4(dev))\nPrefetch=0:x=F,0:y=T\n{\n}\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV eax,[x] ;\nexists\n(0:EAX=0 /\\ 1:eax=0)\n"
	sys, err := Parse("diy.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(sys.Procs) != 2 || len(sys.Bad) != 1 || len(sys.WriteSites()) != 2 {
		t.Fatalf("%d processes, %d bad states, %d sites", len(sys.Procs), len(sys.Bad), len(sys.WriteSites()))
	}
	if l := sys.Procs[1].Locals; len(l) != 1 || l[0].Name != "P1.EAX" {
		t.Errorf("P1's locals: %v, want EAX only", l)
	}
}
