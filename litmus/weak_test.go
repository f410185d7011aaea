package litmus

import (
	"context"
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

// The catalogue of benchmarks/litmus/arm and benchmarks/litmus/riscv:
// tests written for fencer in herd's AArch64 and RISCV dialects, each with
// its verdict under SC and under its model (herd7's, TestHerd7). Every
// test is read, and its SC verdict is fencer's.
func TestWeakCatalogue(t *testing.T) {
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	for sub, min := range map[string]int{"arm": 30, "riscv": 20} {
		files, _ := filepath.Glob("../benchmarks/litmus/" + sub + "/*.litmus")
		if len(files) < min {
			t.Errorf("%d tests in benchmarks/litmus/%s, want at least %d", len(files), sub, min)
		}
		re := regexp.MustCompile(`\(\* fencer: expect (\S+) (safe|bug|fences=\d+) \*\)`)
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
			es := re.FindAllSubmatch(src, -1)
			if len(es) != 2 || string(es[0][1]) != "sc" || string(es[1][1]) != sub {
				t.Errorf("%s: want one expectation for sc, then one for %s", f, sub)
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			r, _, err := cegar.Insert(ctx, sys, sol, cegar.Options{Model: memmodel.SC})
			cancel()
			if err != nil {
				t.Errorf("%s under sc: %v", f, err)
				continue
			}
			got := "unknown: " + r.Reason
			switch {
			case r.Verdict == cegar.SCBug:
				got = "bug"
			case r.Verdict == cegar.Correct && len(r.Fences) == 0:
				got = "safe"
			}
			if got != string(es[0][2]) {
				t.Errorf("%s under sc: %s, want %s", f, got, es[0][2])
			}
			if string(es[0][2]) == "bug" && string(es[1][2]) != "bug" {
				t.Errorf("%s: a bug under sc is one under %s", f, sub)
			}
		}
	}
}

// edges lists the ops of the processes of a test other than the
// observer, and the annotations and address dependencies of accesses.
func edges(t *testing.T, src string) []string {
	t.Helper()
	sys, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var out []string
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			s := e.Op.String()
			// (cs.Pair, an exclusive pair's mark, is checked by TestExclusivePair)
			if a := e.Op.Ann &^ cs.Pair; e.Op.Kind == cs.OpAtomic && a != 0 {
				s += " /" + a.String()
			}
			if len(e.Op.Addr) > 0 {
				s += " addr " + strings.Join(e.Op.Addr, ",")
			}
			out = append(out, p.Name+": "+s)
		}
	}
	return out
}

// armForms has every instruction form of the AArch64 dialect that fencer
// reads, in one thread.
const armForms = `AArch64 forms
{ 0:X1=x; 0:X3=y; int64_t t[2]; 0:X5=t; 0:X6=1; 0:X12=z; 1:X1=x; }
 P0 | P1 ;
 MOV W0,#1 | STADD W0,[X1] ;
 MOV X2,X0 | STADDL W0,[X1] ;
 MOV W4,WZR | STSMAX W0,[X1,#0] ;
 ADD W0,W0,#2 | ;
 SUB W0,W0,W2 | ;
 ADD X7,X5,X6,LSL #3 | ;
 LDR X8,[X7] | ;
 LDR W8,[X5,#8] | ;
 LDR W8,[X5,X6,LSL #3] | ;
 EOR W9,W8,W8 | ;
 LDR W8,[X1,W9,SXTW] | ;
 STR W8,[X1,X9] | ;
 ADD X10,X1,W9,SXTW | ;
 STR W8,[X10] | ;
 ORR W11,W8,#1 | ;
 AND W11,W8,W0 | ;
 EOR W11,W8,#3 | ;
 AND W11,W8,#0 | ;
 LDAR W0,[X1] | ;
 STLR W0,[X3] | ;
 LDXR W0,[X1] | ;
 STXR W4,W0,[X1] | ;
 LDAXR X0,[X3] | ;
 ADD X0,X0,#1 | ;
 STLXR W4,X0,[X3] | ;
 SWP W0,W2,[X1] | ;
 SWPA W0,W2,[X1] | ;
 SWPL W0,W2,[X1] | ;
 SWPAL W0,W2,[X1] | ;
 LDADD W0,W2,[X1] | ;
 LDADDAL W0,W2,[X1] | ;
 LDEORA W0,W2,[X1] | ;
 LDSETL W0,W2,[X1] | ;
 LDCLR W0,W2,[X1] | ;
 LDSMAX W0,W2,[X1] | ;
 LDSMIN W0,W2,[X1] | ;
 CAS W0,W2,[X1] | ;
 CASAL W0,W2,[X12] | ;
 DMB SY | ;
 DMB ISH | ;
 DMB ISHLD | ;
 DMB ISHST | ;
 DMB LD | ;
 DMB ST | ;
 DSB SY | ;
 DMB OSHST | ;
 NOP | ;
 CMP W0,#1 | ;
 B.EQ L0 | ;
 B.NE L0 | ;
 B.GE L0 | ;
 B.GT L0 | ;
 B.LE L0 | ;
 B.LT L0 | ;
 CBZ W0,L0 | ;
 CBNZ X0,L0 | ;
 B L0 | ;
 L0: | ;
 L1: mov w0,#3 | ;
exists (0:X0=3)
`

// riscvForms has every instruction form of the RISCV dialect that fencer
// reads, in one thread.
const riscvForms = `RISCV forms
{ 0:a0=x; 0:a1=y; 0:t0=z; }
 P0 ;
 li a2,1 ;
 mv a3,a2 ;
 addi a3,a3,-1 ;
 addiw a3,a3,2 ;
 add a4,a2,a3 ;
 sub a4,a4,a2 ;
 xor t1,a4,a4 ;
 xori a5,a4,1 ;
 or a5,a4,a2 ;
 ori a5,a4,0 ;
 and a5,a4,a2 ;
 andi a5,a4,0 ;
 lw a6,0(a0) ;
 ld a6,(a1) ;
 lwu a6,0(a0) ;
 lw.aq a6,0(a0) ;
 sw a2,0(a0) ;
 sd a2,0(a1) ;
 sw.rl a2,0(a0) ;
 add t2,a0,t1 ;
 lw s1,0(t2) ;
 la t3,y ;
 sw s1,0(t3) ;
 lr.w a6,(a0) ;
 sc.w a7,a2,(a0) ;
 lr.d.aq a6,(a1) ;
 addi a2,a2,1 ;
 sc.d.rl a7,a2,(a1) ;
 lr.w.aqrl a6,(t0) ;
 sc.w.aqrl a7,a6,(t0) ;
 amoswap.w a6,a2,(a0) ;
 amoadd.w.aq a6,a2,(a0) ;
 amoxor.d.rl a6,a2,(a0) ;
 amoor.w.aqrl a6,a2,(a0) ;
 amoand.w a6,a2,(a0) ;
 amomax.w a6,a2,(a0) ;
 amomin.d.aq.rl a6,a2,(a0) ;
 fence ;
 fence rw,rw ;
 fence r,rw ;
 fence rw,w ;
 fence w,w ;
 fence r,r ;
 fence w,r ;
 fence iorw,iorw ;
 fence.tso ;
 nop ;
 beq a2,a3,L0 ;
 bne a2,zero,L0 ;
 blt a2,x0,L0 ;
 bge a2,a3,L0 ;
 j L0 ;
 L0: ;
 L1: LI A2,3 ;
exists (0:a2=3)
`

// Every instruction form lowers to its operations: plain and annotated
// reads and writes, address dependencies (Op.Addr) from index and
// computed address registers, values that keep the registers they were
// computed from (data dependencies), atomic steps with the order of their
// suffix (none: relaxed), exclusive pairs as one step that writes (status
// 0) or not (status 1), barriers of every kind, and branches.
func TestWeakForms(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // in order, each the start of an edge
	}{
		{armForms, []string{
			"P0: X0 := 1", "P0: X2 := X0", "P0: X4 := 0", "P0: X0 := (X0 + 2)", "P0: X0 := (X0 - X2)",
			"P0: X7 := 0", "P0: X8 := read t_1\x00", "P0: X8 := read t_1\x00", "P0: X8 := read t_1\x00",
			"P0: X9 := (X8 - X8)", "P0: X8 := read x addr P0.X9", "P0: write x := X8 addr P0.X9",
			"P0: X10 := X9", "P0: write x := X8 addr P0.X10",
			"P0: atomic { assume ((0 <= X8) && (X8 <= 255)) }\x00", "P0: X11 := (((", // ORR #1
			"P0: atomic { assume ((0 <= X8) && (X8 <= 255) && (0 <= X0) && (X0 <= 255)) }\x00", "P0: X11 := (((", // AND
			"P0: X11 := (X8 * 0)",
			"P0: X0 := read acquire x", "P0: write release y := X0",
			"P0: atomic { X0 := read x; write x := X0; X4 := 0 }\x00", "P0: atomic { X0 := read x; X4 := 1 }\x00",
			"P0: atomic { X0 := read y; X0 := (X0 + 1); write y := X0; X4 := 0 } /acquire+release",
			"P0: atomic { X0 := read y; X0 := (X0 + 1); X4 := 1 } /acquire\x00",
			"P0: atomic { $0 := read x; write x := X0; X2 := $0 }\x00",
			"P0: atomic { $0 := read x; write x := X0; X2 := $0 } /acquire\x00",
			"P0: atomic { $0 := read x; write x := X0; X2 := $0 } /release",
			"P0: atomic { $0 := read x; write x := X0; X2 := $0 } /acquire+release",
			"P0: atomic { $0 := read x; write x := ($0 + X0); X2 := $0 }\x00",
			"P0: atomic { $0 := read x; write x := ($0 + X0); X2 := $0 } /acquire+release",
			"P0: atomic { rmw_old := read x; assume ((0 <= rmw_old)", // LDEORA
			"P0: atomic { rmw_old := read x; assume ((0 <= rmw_old)", // LDSETL
			"P0: atomic { rmw_old := read x; assume ((0 <= rmw_old)", // LDCLR
			"P0: atomic { rmw_old := read x; assume (X0 > rmw_old); write x := X0; X2 := rmw_old }\x00",
			"P0: atomic { rmw_old := read x; assume (X0 < rmw_old); write x := X0; X2 := rmw_old }\x00",
			"P0: atomic { cas_old := read x; assume (cas_old == X0); write x := X2; X0 := cas_old }\x00",
			"P0: atomic { cas_old := read x; assume !(cas_old == X0); X0 := cas_old }\x00",
			"P0: atomic { cas_old := read z; assume (cas_old == X0); write z := X2; X0 := cas_old } /acquire+release",
			"P0: fence\x00", "P0: fence\x00", "P0: fence load\x00", "P0: fence store\x00", "P0: fence load\x00",
			"P0: fence store\x00", "P0: fence\x00", "P0: fence store\x00",
			"P0: cmp := (X0 - 1)", "P0: assume (cmp == 0)", "P0: assume (cmp != 0)", "P0: assume (cmp >= 0)",
			"P0: assume (cmp > 0)", "P0: assume (cmp <= 0)", "P0: assume (cmp < 0)", "P0: assume (X0 == 0)",
			"P0: assume (X0 != 0)", "P0: X0 := 3", "P0: assume (X0 == 3)",
			"P1: atomic { $0 := read x; write x := ($0 + X0); zero := $0 } /noret\x00",
			"P1: atomic { $0 := read x; write x := ($0 + X0); zero := $0 } /release+noret\x00",
			"P1: atomic { rmw_old := read x; assume (X0 > rmw_old); write x := X0 } /noret\x00",
		}},
		{riscvForms, []string{
			"P0: x12 := 1", "P0: x13 := x12", "P0: x13 := (x13 + (-1))", "P0: x13 := (x13 + 2)",
			"P0: x14 := (x12 + x13)", "P0: x14 := (x14 - x12)", "P0: x6 := (x14 - x14)",
			"P0: atomic { assume ((0 <= x14) && (x14 <= 255)) }\x00", "P0: x15 := (((", "P0: x15 := (((", "P0: x15 := x14",
			"P0: x15 := (((", "P0: x15 := (x14 * 0)",
			"P0: x16 := read x\x00", "P0: x16 := read y\x00", "P0: x16 := read x\x00", "P0: x16 := read acquire x\x00",
			"P0: write x := x12\x00", "P0: write y := x12\x00", "P0: write release x := x12\x00",
			"P0: x7 := x6", "P0: x9 := read x addr P0.x7", "P0: x28 := 0", "P0: write y := x9\x00",
			"P0: atomic { x16 := read x; write x := x12; x17 := 0 }\x00", "P0: atomic { x16 := read x; x17 := 1 }\x00",
			"P0: atomic { x16 := read y; x12 := (x12 + 1); write y := x12; x17 := 0 } /acquire+release",
			"P0: atomic { x16 := read z; write z := x16; x17 := 0 } /acquire+release",
			"P0: atomic { $0 := read x; write x := x12; x16 := $0 }\x00",
			"P0: atomic { $0 := read x; write x := ($0 + x12); x16 := $0 } /acquire\x00",
			"P0: atomic { rmw_old := read x; assume ((0 <= rmw_old)", // amoxor.rl
			"P0: atomic { rmw_old := read x; assume ((0 <= rmw_old)", // amoor.aqrl
			"P0: atomic { rmw_old := read x; assume ((0 <= rmw_old)", // amoand
			"P0: atomic { rmw_old := read x; assume (x12 > rmw_old); write x := x12; x16 := rmw_old }\x00",
			"P0: atomic { rmw_old := read x; assume (x12 < rmw_old); write x := x12; x16 := rmw_old } /acquire+release",
			"P0: fence\x00", "P0: fence\x00", "P0: fence load\x00", "P0: fence release\x00", "P0: fence store\x00",
			"P0: fence loadload\x00", "P0: fence storeload\x00", "P0: fence\x00", "P0: fence tso\x00",
			"P0: assume (x12 == x13)", "P0: assume (x12 != 0)", "P0: assume (x12 < 0)", "P0: assume (x12 >= x13)",
			"P0: x12 := 3", "P0: assume (x12 == 3)",
		}},
	} {
		got := edges(t, tc.src)
		i := 0
		for _, w := range tc.want {
			exact := strings.HasSuffix(w, "\x00")
			w = strings.TrimSuffix(w, "\x00")
			for i < len(got) && !(got[i] == w || !exact && strings.HasPrefix(got[i], w)) {
				i++
			}
			if i == len(got) {
				t.Errorf("%s: no edge %q in order; edges:\n%s", strings.Fields(tc.src)[1], w, strings.Join(got, "\n"))
				break
			}
			i++
		}
	}
}

// The conditional selects, index registers whose value is not known
// statically, post-indexed accesses, a CAS whose compare register may keep
// its value, and atomic instructions that return nothing:
//
//   - P0: CSEL, CSINC, CSET and CINC on flags that depend on no read are
//     a branch on the flags that selects the value (CSET and CINC with
//     herd's inverse condition); CSEL to the zero register writes a
//     scratch local;
//   - P1: CSEL Wd,Wn,Wn on flags of Wn is a move, with a write after it;
//   - P2: a load whose index is a loaded value is one branch per element
//     (t[2], shift 3; x: index 0) and an assert for any other value; the
//     CAS swaps with Rs taking the value read or keeping its own, since a
//     read's address depends on Rs and no write follows;
//   - P3: ST<op>, and SWP, CAS and LD<op> with a zero destination, are
//     marked noret, without acquire; a post-indexed STR whose base is not
//     read again is the write at [Xn].
func TestWeakSelects(t *testing.T) {
	src := `AArch64 selects
{ 0:X1=x; 0:X3=y; 1:X1=x; 1:X3=y; int64_t t[2]; 2:X1=x; 2:X5=t; 2:X8=z; 3:X1=x; 3:X8=z; }
 P0                 | P1               | P2                      | P3                 ;
 LDR W0,[X1]        | LDR W0,[X1]      | LDR W0,[X1]             | STADDL W9,[X8]     ;
 CMP W9,#1          | CMP W0,#0        | LDR W10,[X5,W0,SXTW #3] | SWPA W9,WZR,[X8]   ;
 CSEL W2,W0,W9,EQ   | CSEL W0,W0,W0,EQ | LDR W11,[X1,W0,SXTW]    | CAS WZR,W9,[X8]    ;
 CSINC X4,X9,X0,NE  | STR W9,[X3]      | CAS W0,W9,[X8]          | LDCLRA W9,WZR,[X8] ;
 CSET W6,LT         |                  | EOR W12,W0,W0           | STR W9,[X1],#4     ;
 CINC W7,W0,GT      |                  | LDR W13,[X1,W12,SXTW]   |                    ;
 CSEL WZR,W0,W0,LE  |                  |                         |                    ;
 STR W2,[X3]        |                  |                         |                    ;
exists (0:X0=1)
`
	want := []string{
		"P0: X0 := read x", "P0: cmp := (X9 - 1)",
		"P0: assume (cmp == 0)", "P0: assume !(cmp == 0)", "P0: X2 := X0\x00", "P0: X2 := X9\x00",
		"P0: assume (cmp != 0)", "P0: assume !(cmp != 0)", "P0: X4 := X9\x00", "P0: X4 := (X0 + 1)\x00",
		"P0: assume (cmp >= 0)", "P0: assume !(cmp >= 0)", "P0: X6 := 0\x00", "P0: X6 := 1\x00",
		"P0: assume (cmp <= 0)", "P0: assume !(cmp <= 0)", "P0: X7 := X0\x00", "P0: X7 := (X0 + 1)\x00",
		"P0: assume (cmp <= 0)", "P0: assume !(cmp <= 0)", "P0: zero := X0\x00", "P0: zero := X0\x00",
		"P0: write y := X2\x00",
		"P1: X0 := read x", "P1: cmp := X0", "P1: X0 := X0\x00", "P1: write y := X9\x00",
		"P2: X0 := read x", "P2: assume (X0 == 0)", "P2: assume !(X0 == 0)", "P2: X10 := read t_0 addr P2.X0\x00",
		"P2: assume (X0 == 1)", "P2: assume !(X0 == 1)", "P2: X10 := read t_1 addr P2.X0\x00", "P2: assume false",
		"P2: assume (X0 == 0)", "P2: assume !(X0 == 0)", "P2: X11 := read x addr P2.X0\x00", "P2: assume false",
		"P2: atomic { cas_old := read z; assume (cas_old == X0); write z := X9; X0 := cas_old }\x00",
		"P2: atomic { cas_old := read z; assume (cas_old == X0); write z := X9 }\x00",
		"P2: atomic { cas_old := read z; assume !(cas_old == X0); X0 := cas_old }\x00",
		"P2: X12 := (X0 - X0)", "P2: X13 := read x addr P2.X12\x00",
		"P3: atomic { $0 := read z; write z := ($0 + X9); zero := $0 } /release+noret\x00",
		"P3: atomic { $0 := read z; write z := X9; zero := $0 } /noret\x00",
		"P3: atomic { cas_old := read z; assume (cas_old == 0); write z := X9 } /noret\x00",
		"P3: atomic { cas_old := read z; assume !(cas_old == 0) } /noret\x00",
		"P3: atomic { rmw_old := read z; assume ((0 <= rmw_old)",
		"P3: write x := X9\x00",
	}
	got := edges(t, src)
	i := 0
	for _, w := range want {
		exact := strings.HasSuffix(w, "\x00")
		w = strings.TrimSuffix(w, "\x00")
		for i < len(got) && !(got[i] == w || !exact && strings.HasPrefix(got[i], w)) {
			i++
		}
		if i == len(got) {
			t.Fatalf("no edge %q in order; edges:\n%s", w, strings.Join(got, "\n"))
		}
		i++
	}
	// The ones with a write after them: herd orders the read of the flags
	// before the writes that depend on the result only (CSEL), the CAS's
	// read before the writes after a read whose address depends on Rs.
	for _, tc := range []struct{ src, want string }{
		{strings.Replace(src, " CSEL W0,W0,W0,EQ |", " CSEL W0,W9,W0,EQ |", 1), "t.litmus:6:23: CSEL on flags that depend on a read"},
		{strings.Replace(src, " LDR W13,[X1,W12,SXTW]   |", " STR W13,[X1,W12,SXTW]   |", 1), ""},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// The flags start as herd's NZCV = 0, where NE, GE and GT hold: the
// local of the flags starts at 1 (a - b > 0), so that a B.cond or CSEL
// before any CMP reads them as herd does.
func TestWeakInitialFlags(t *testing.T) {
	sys, err := Parse("t.litmus", []byte("AArch64 T\n{ 0:X1=1; 0:X2=2; }\n P0 ;\n CSEL W0,W1,W2,EQ ;\n B.GT L0 ;\n L0: ;\nexists (0:X0=1)\n"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range sys.Procs[0].Locals {
		if l.Name == "P0.cmp" {
			found = true
			if l.Init.Value != 1 {
				t.Errorf("the flags start at %d, want 1", l.Init.Value)
			}
		}
	}
	if !found {
		t.Errorf("no local cmp in %v", sys.Procs[0].Locals)
	}
}

// What is not understood is refused at its position, never guessed.
func TestWeakRefusals(t *testing.T) {
	arm := func(init string, code ...string) string {
		return "AArch64 T\n{ " + init + " }\n P0 ;\n " + strings.Join(code, " ;\n ") + " ;\nexists (0:X0=1)\n"
	}
	rv := func(init string, code ...string) string {
		return "RISCV T\n{ " + init + " }\n P0 ;\n " + strings.Join(code, " ;\n ") + " ;\nexists (0:x5=1)\n"
	}
	cases := []struct{ src, want string }{
		{"ARM T\n{}\n", "t.litmus:1:1: expected X86, X86_64, AArch64 or RISCV"},
		{arm("0:X1=x;", "ISB"), "t.litmus:4:2: ISB is not read"},
		{arm("0:X1=x;", "LDRB W0,[X1]"), "t.litmus:4:2: instruction LDRB is not read (AArch64: NOP, MOV"},
		{arm("0:X1=x;", "LDUMAX W0,W2,[X1]"), "t.litmus:4:2: LDUMAX is not read: fencer's values are integers"},
		{arm("0:X1=x;", "DMB OSHLDX"), "t.litmus:4:6: DMB OSHLDX is not read"},
		{arm("", "LDR W0,[X1]"), "t.litmus:4:10: X1 does not hold an address known statically"},
		{arm("0:X1=x;", "LDR W0,[X1,#4]!"), "t.litmus:4:16: expected ']' closing the memory operand"},
		{arm("0:X1=x;", "LDR W0,[X1],#4", "LDR W2,[X1]"), "t.litmus:4:14: a post-indexed LDR whose base register X1 is read after it (line 5) is not read"},
		{arm("0:X1=x;", "LDAR W0,[X1],#4"), "t.litmus:4:2: LDAR takes 2 operands, not 3"},
		{arm("0:X1=x;", "LDAR W0,[X1,#8]"), "t.litmus:4:14: this instruction takes [Xn] only"},
		{arm("0:X1=x;", "LDR W0,[W1]"), "t.litmus:4:10: the base of a memory operand is an X register"},
		{arm("0:X1=x;", "LDR W0,[X1,#4]"), "t.litmus:4:9: offset 4 from x: x is not an array"},
		{arm("0:X1=x;", "LDR W0,[X1]", "ADD X4,X1,W0,SXTW", "LDR W2,[X4]"), "t.litmus:5:12: W0: its value is not known statically, so neither is the address ADD computes"},
		{arm("0:X1=x;", "MOV X1,#2"), "t.litmus:4:2: 0:X1 holds the address of x and P0 writes X1"},
		{arm("0:X1=x;", "STR X1,[X1]"), "t.litmus:4:6: X1 holds the address of x: an address is only read as a memory operand"},
		{arm("0:X1=x;", "LDR W0,[X2]", "ADD X2,X1,#0"), "t.litmus:4:10: X2 holds an address computed at line 5, which does not come before this use"},
		{arm("0:X1=x;", "ADD X2,X1,#0", "L0:", "LDR W0,[X2]"), "t.litmus:6:10: X2 holds an address computed at line 4"},
		{arm("0:X1=x;", "ADD X2,X1,#0", "ADD X2,X1,#0"), "t.litmus:5:2: X2 holds an address computed at line 4 and is written again"},
		{arm("0:X1=x; 0:X3=y;", "LDXR W0,[X1]", "STXR W4,W0,[X3]"), "t.litmus:5:13: STXR writes y, not x"},
		{arm("0:X1=x;", "LDXR W0,[X1]", "CBZ W0,L0", "L0:", "STXR W4,W0,[X1]"), "t.litmus:7:2: STXR is not paired with a load-exclusive"},
		{arm("0:X1=x;", "LDR W0,[X1]", "EOR W2,W0,W0", "SWP W0,W2,[X1,W2,SXTW]"), "t.litmus:6:16: this instruction takes [Xn] only"},
		{arm("0:X1=x;", "LDR W0,[X1]", "EOR W2,W0,W0", "ADD X3,X1,W2,SXTW", "SWP W0,W5,[X3]"), "t.litmus:7:12: an address dependency into SWP is not read"},
		{arm("0:X1=x;", "MOV W0,#-1"), "t.litmus:4:9: a negative value in a W register is not read"},
		{arm("0:X1=x;", "CBZ W0,L9"), "t.litmus:4:9: label L9 is not defined in P0"},
		{arm("0:X1=x;", "MOV SP,#1"), "t.litmus:4:6: the stack pointer is not read"},
		{arm("0:X1=x;", "CSINV W0,W1,W2,EQ"), "t.litmus:4:2: CSINV is not read: its value is a complement or a negation"},
		{arm("0:X1=x;", "CMP W1,#0", "CSET W0,GE"), "t.litmus:5:10: CSET with GE is not read: herd7 reads it as the inverse of GT"},
		{arm("0:X1=x;", "CMP W1,#0", "CSEL W0,W1,W2,HI"), "t.litmus:5:16: condition HI is not read"},
		{arm("0:X1=x;", "CMP W1,#0", "CSEL W0,W1,X2,EQ"), "t.litmus:5:2: CSEL takes registers of one width"},
		{arm("0:X1=x; 0:X3=y;", "LDR W6,[X1]", "CMP W6,#0", "CSEL W0,W6,W2,EQ", "STR W2,[X3]"), "t.litmus:6:2: CSEL on flags that depend on a read, with a write after it that does not depend on its result, is not read"},
		{arm("0:X1=x; 0:X3=y;", "LDR W6,[X1]", "CAS W6,W2,[X3]", "EOR W4,W6,W6", "LDR W5,[X1,W4,SXTW]", "STR W2,[X3]"), "t.litmus:7:9: a read whose address depends on the compare register of the CAS at line 5, with a write after that CAS, is not read"},
		{arm("0:X1=x; 0:X3=y;", "LDR W6,[X1]", "CAS W6,W2,[X3]", "LDR W4,[X3]", "EOR W4,W4,W4", "LDR W5,[X1,W4,SXTW]"), "t.litmus:6:2: LDR reads the location of the CAS at line 5 and a read's address depends on it (line 8): not read"},
		{arm("0:X1=x;", "EOR W0,W0,#256"), "t.litmus:4:12: EOR with an immediate outside [0, 255] is not read"},
		{"AArch64 T\n{ 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\nexists (0:X1=1)\n", "t.litmus:5:11: 0:X1 holds the address of x"},
		{"AArch64 T\n{ 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\nexists (0:XZR=0)\n", "t.litmus:5:11: XZR is the zero register"},
		{rv("0:x6=x;", "lb x5,0(x6)"), "t.litmus:4:2: lb is not read: fencer does not model sizes"},
		{rv("0:x6=x;", "bltu x5,x6,L0"), "t.litmus:4:2: bltu is not read"},
		{rv("0:x6=x;", "fence.i"), "t.litmus:4:2: fence.i is not read"},
		{rv("0:x6=x;", "fence r,x"), "t.litmus:4:10: fence set x is not read"},
		{rv("0:x6=x;", "amominu.w x5,x5,(x6)"), "t.litmus:4:2: amominu.w is not read"},
		{rv("0:x6=x;", "lr.w x5,4(x6)"), "t.litmus:4:10: this instruction takes (reg) only"},
		{rv("0:x6=x;", "lw x5,0(x40)"), "t.litmus:4:10: x40 is not a register of RISCV"},
		{rv("0:x6=x;", "lw x5,0(zero)"), "t.litmus:4:10: the base of a memory operand holds an address; x0 does not"},
		{rv("0:x6=x;", "sw.aq x5,0(x6)"), "t.litmus:4:2: instruction sw.aq is not read"},
		{rv("0:x6=x;", "mul x5,x5,x5"), "t.litmus:4:2: instruction mul is not read (RISCV: nop"},
		{rv("0:x6=x;", "add x7,x6,x6"), "t.litmus:4:2: add adds two addresses"},
	}
	// LDAPR and RISC-V's store.aqrl wait for package cs to lower an
	// acquire-pc read and an acquire-release write.
	if !annotatable(cs.OpRead, cs.AcquirePC) {
		cases = append(cases, struct{ src, want string }{arm("0:X1=x;", "LDAPR W0,[X1]"), "t.litmus:4:2: LDAPR is not read yet: package cs does not lower a read annotated acquirepc"})
	}
	if !annotatable(cs.OpWrite, cs.Acquire|cs.Release) {
		cases = append(cases, struct{ src, want string }{rv("0:x6=x;", "sw.aqrl x5,0(x6)"), "t.litmus:4:2: sw.aqrl is not read yet"})
	}
	for _, tc := range cases {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s...", tc.src, err, tc.want)
		}
	}
}

// A condition on final memory is checked by an observer: each thread
// publishes its registers and then writes its flag with a release write;
// Obs reads the flags with acquire reads, so that it reads final values.
func TestWeakObserver(t *testing.T) {
	src := "AArch64 T\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n MOV W0,#1 | MOV W0,#2 ;\n STR W0,[X1] | STR W0,[X1] ;\n LDR W2,[X1] | ;\nexists (x=1 /\\ 0:X2=2)\n"
	got := strings.Join(edges(t, src), "\n")
	for _, w := range []string{"P0: write P0_X2 := X2", "P0: write release done0 := 1", "P1: write release done1 := 1",
		"Obs: seen0 := read acquire done0", "Obs: seen1 := read acquire done1", "Obs: assume ((seen0 == 1) && (seen1 == 1))"} {
		if !strings.Contains(got, w) {
			t.Errorf("no edge %q in\n%s", w, got)
		}
	}
	// A condition on registers only ends each thread with an assume.
	src = "RISCV T\n{ 0:x6=x; }\n P0 ;\n lw x5,0(x6) ;\nexists (0:x5=0)\n"
	if got := edges(t, src); len(got) != 3 || got[1] != "P0: assume (x5 == 0)" {
		t.Errorf("edges %q", got)
	}
}

// site returns the site of sys right after (or before) the instruction
// text (text...: the statement that starts with text).
func site(t *testing.T, sys *cs.System, text string, place cs.Place) *cs.Site {
	t.Helper()
	prefix, ok := strings.CutSuffix(text, "...")
	for _, s := range sys.Sites {
		if (s.Text == text || ok && strings.HasPrefix(s.Text, prefix)) && s.Place == place {
			return s
		}
	}
	t.Fatalf("no site at %q", text)
	return nil
}

// access returns the position of the first access (or atomic step) of
// process p whose op starts with op.
func access(t *testing.T, sys *cs.System, p int, op string) cs.Pos {
	t.Helper()
	for _, e := range sys.Procs[p].Edges {
		if strings.HasPrefix(e.Op.String(), op) {
			return e.Pos
		}
	}
	t.Fatalf("no edge %q in %s", op, sys.Procs[p].Name)
	return 0
}

// EditChanges writes barriers of every kind in the dialect's syntax as new
// rows, and raises by rewriting the instruction; the result reads back
// with those barriers and annotations. What the dialect cannot express is
// an error.
func TestEditChanges(t *testing.T) {
	const armSrc = `AArch64 E
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0          | P1                  ;
 MOV W0,#1   | LDR W0,[X1]         ;
 STR W0,[X1] | LDR W2,[X3,W4,SXTW] ;
 MOV W2,#1   | LDXR W5,[X1]        ;
 STR W2,[X3] | STXR W6,W5,[X1]     ;
             | SWP W0,W7,[X3]      ;
             | CBZ W0,L0           ;
             | L0: DMB ISHST       ;
exists (1:X0=1 /\ 1:X2=0)
`
	sys, err := Parse("e.litmus", []byte(armSrc))
	if err != nil {
		t.Fatal(err)
	}
	out, err := EditChanges([]byte(armSrc), []cs.Change{
		{Site: site(t, sys, "STR W0,[X1]", cs.After), Kind: cs.FullFence, Instr: "dmb ish"},
		{Site: site(t, sys, "LDR W0,[X1]", cs.After), Kind: cs.LoadFence, Instr: "DMB ISHLD"},
		{Site: site(t, sys, "LDR W0,[X1]", cs.After), Kind: cs.StoreFence},
		{Site: site(t, sys, "LDXR W5,[X1]...", cs.After), Kind: cs.StoreFence},
		{Site: site(t, sys, "CBZ W0,L0", cs.Before), Kind: cs.LoadFence},
		{Pos: access(t, sys, 0, "write y"), Ann: cs.Release},
		{Pos: access(t, sys, 1, "X0 := read y"), Ann: cs.AcquirePC},
		{Pos: access(t, sys, 1, "X0 := read y"), Ann: cs.Acquire},
		{Pos: access(t, sys, 1, "atomic { X5"), Ann: cs.Acquire},
		{Pos: access(t, sys, 1, "atomic { $0"), Ann: cs.Acquire},
		{Pos: access(t, sys, 1, "atomic { $0"), Ann: cs.Release},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ` P0           | P1                  ;
 MOV W0,#1    | LDAR W0,[X1]        ;
              | DMB ISHLD           ;
              | DMB ISHST           ;
 STR W0,[X1]  | LDR W2,[X3,W4,SXTW] ;
 DMB ISH      |                     ;
 MOV W2,#1    | LDAXR W5,[X1]       ;
 STLR W2,[X3] | STXR W6,W5,[X1]     ;
              | DMB ISHST           ;
              | SWPAL W0,W7,[X3]    ;
              | DMB ISHLD           ;
              | CBZ W0,L0           ;
              | L0: DMB ISHST       ;
`
	if !strings.Contains(string(out), want) {
		t.Errorf("got\n%s\nwant the table\n%s", out, want)
	}
	got := strings.Join(edges(t, string(out)), "\n")
	for _, w := range []string{"P0: write release y := X2", "P1: X0 := read acquire y", "P1: fence load\nP1: fence store",
		"/acquire\n", "P1: atomic { $0 := read x; write x := X0; X7 := $0 } /acquire+release"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in\n%s", w, got)
		}
	}
	for _, bad := range []struct {
		c    cs.Change
		want string
	}{
		{cs.Change{Site: site(t, sys, "STR W0,[X1]", cs.After), Kind: cs.MaskFence(cs.StoreLoad)}, "AArch64 has no barrier instruction of kind storeload"},
		{cs.Change{Site: site(t, sys, "STR W0,[X1]", cs.After), Kind: cs.FullFence, Instr: "DMB ISHLD"}, `"DMB ISHLD" is not a barrier of kind full in AArch64`},
		{cs.Change{Pos: access(t, sys, 1, "X2 := read x"), Ann: cs.Acquire}, "LDR cannot become LDAR: it takes [Xn] only"},
		{cs.Change{Pos: access(t, sys, 0, "write y"), Ann: cs.Acquire}, "STR cannot be made acquire"},
		{cs.Change{Site: &cs.Site{Start: 150, End: 158, Place: cs.After}, Kind: cs.FullFence}, "not a point between two instructions"},
	} {
		if _, err := EditChanges([]byte(armSrc), []cs.Change{bad.c}); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: err %v, want %s", bad.c, err, bad.want)
		}
	}
	// A site inside an exclusive pair has no row.
	_, tt, _ := read(cs.NewFile("", []byte(armSrc)))
	ld := tt.w[1][2]
	if _, err := EditChanges([]byte(armSrc), []cs.Change{{Site: &cs.Site{Start: ld.cell.start, End: ld.cell.end, Place: cs.After}, Kind: cs.FullFence}}); err == nil || !strings.Contains(err.Error(), "store-exclusive") {
		t.Errorf("a barrier inside an exclusive pair: %v", err)
	}

	const rvSrc = `RISCV E
{ 0:x6=x; 0:x8=y; 1:x6=y; 1:x8=x; }
 P0          | P1          ;
 li x5,1     | lw x5,0(x6) ;
 sw x5,0(x6) | lw x7,0(x8) ;
 li x7,1     | amoadd.w x9,x5,(x6) ;
 sw x7,0(x8) |             ;
exists (1:x5=1 /\ 1:x7=0)
`
	sys, err = Parse("e.litmus", []byte(rvSrc))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[cs.FenceKind]string{cs.FullFence: "fence rw,rw", cs.LoadFence: "fence r,rw", cs.ReleaseFence: "fence rw,w",
		cs.StoreFence: "fence w,w", cs.TSOFence: "fence.tso", cs.MaskFence(cs.StoreLoad): "fence w,r", cs.MaskFence(cs.LoadLoad | cs.StoreLoad): "fence rw,r"}
	for k, text := range kinds {
		out, err := EditChanges([]byte(rvSrc), []cs.Change{{Site: site(t, sys, "sw x5,0(x6)", cs.After), Kind: k, Instr: text}})
		if err != nil || !strings.Contains(string(out), "\n "+text+" ") {
			t.Errorf("%s: %v\n%s", k, err, out)
			continue
		}
		psys, err := Parse("e.litmus", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if e := psys.Procs[0].Edges[2]; e.Op.Kind != cs.OpFence || e.Op.Fence != k {
			t.Errorf("%s reads back as %v", text, e.Op)
		}
	}
	out, err = EditChanges([]byte(rvSrc), []cs.Change{
		{Site: site(t, sys, "lw x5,0(x6)", cs.After), Kind: cs.LoadFence},
		{Site: site(t, sys, "lw x5,0(x6)", cs.After), Kind: cs.StoreFence},
		{Pos: access(t, sys, 0, "write y"), Ann: cs.Release},
		{Pos: access(t, sys, 1, "x5 := read y"), Ann: cs.Acquire},
		{Pos: access(t, sys, 1, "atomic"), Ann: cs.Acquire | cs.Release},
	})
	if err != nil {
		t.Fatal(err)
	}
	want = ` P0             | P1                       ;
 li x5,1        | lw.aq x5,0(x6)           ;
                | fence.tso                ;
 sw x5,0(x6)    | lw x7,0(x8)              ;
 li x7,1        | amoadd.w.aqrl x9,x5,(x6) ;
 sw.rl x7,0(x8) |                          ;
`
	if !strings.Contains(string(out), want) {
		t.Errorf("got\n%s\nwant the table\n%s", out, want)
	}
	if _, err := Parse("e.litmus", out); err != nil {
		t.Errorf("%v\n%s", err, out)
	}
	if _, err := EditChanges([]byte(rvSrc), []cs.Change{{Site: site(t, sys, "sw x5,0(x6)", cs.After), Kind: cs.MaskFence(cs.LoadLoad | cs.StoreStore)}}); err == nil {
		t.Error("fence r,r and w,w in one instruction")
	}

	// x86: MFENCE after a write, nothing else.
	x86 := "X86 SB\n{ }\n P0 ;\n MOV [x],$1 ;\n MOV EAX,[y] ;\nexists (0:EAX=0)\n"
	sys, err = Parse("e.litmus", []byte(x86))
	if err != nil {
		t.Fatal(err)
	}
	s := sys.WriteSites()[0]
	if out, err := EditChanges([]byte(x86), []cs.Change{{Site: s, Kind: cs.FullFence, Instr: "mfence"}}); err != nil || !strings.Contains(string(out), " MFENCE ") {
		t.Errorf("%v\n%s", err, out)
	}
	for _, c := range []cs.Change{{Site: s, Kind: cs.StoreFence}, {Pos: access(t, sys, 0, "write x"), Ann: cs.Release}} {
		if _, err := EditChanges([]byte(x86), []cs.Change{c}); err == nil {
			t.Errorf("%+v written in an x86 test", c)
		}
	}
	var _ cs.ChangeEditor = Reader{}
}

// insert --reconsider and the full and store fences of EditFences in the
// weak dialects: DMB ISH and fence rw,rw are candidates, and go; a label
// in their cell stays.
func TestWeakEditFences(t *testing.T) {
	src := "AArch64 T\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n MOV W0,#1 ;\n STR W0,[X1] ;\n L0: DMB SY ;\n DMB ISHLD ;\n LDR W2,[X3] ;\nexists (0:X2=0)\n"
	sys, err := Reader{}.ParseWith("t.litmus", []byte(src), cs.Options{Reconsider: true})
	if err != nil {
		t.Fatal(err)
	}
	var fences []*cs.Site
	for _, s := range sys.Sites {
		if s.Fence {
			fences = append(fences, s)
		}
	}
	if len(fences) != 1 {
		t.Fatalf("%d candidate fences, want 1 (DMB ISHLD is no full fence)", len(fences))
	}
	out, err := EditFences([]byte(src), sys.WriteSites(), []*cs.Site{site(t, sys, "MOV W0,#1", cs.After)}, fences)
	if err != nil {
		t.Fatal(err)
	}
	want := " P0          ;\n MOV W0,#1   ;\n DMB ISHST   ;\n STR W0,[X1] ;\n DMB ISH     ;\n L0:         ;\n DMB ISHLD   ;\n LDR W2,[X3] ;\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// An exclusive pair is one atomic step marked cs.Pair (its two orders
// stay apart: a RISC-V lr.aq; sc.rl is not one event), an AMO is not.
func TestExclusivePair(t *testing.T) {
	src := `RISCV P
{ 0:x5=x; }
 P0                ;
 lr.w.aq x6,0(x5)  ;
 sc.w.rl x7,x6,0(x5) ;
 amoswap.w.aq x8,x6,(x5) ;
exists (0:x7=0)
`
	sys, err := Reader{}.Parse("p.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var pair, amo int
	for _, e := range sys.Procs[0].Edges {
		if e.Op.Kind != cs.OpAtomic {
			continue
		}
		if e.Op.Ann&cs.Pair != 0 {
			pair++
		} else {
			amo++
		}
	}
	if pair == 0 || amo == 0 {
		t.Errorf("%d pair steps, %d AMO steps", pair, amo)
	}
}
