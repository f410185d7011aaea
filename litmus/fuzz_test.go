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
}

// FuzzParse checks that no input makes Parse panic, that every failure is
// one positioned error, and that InsertFences on every site gives a test
// that parses again with the same number of sites.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../benchmarks/litmus/x86/*.litmus")
	more, _ := filepath.Glob("../benchmarks/litmus/x86/herd/*.litmus")
	files = append(files, more...)
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
	})
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
