package cgen

import (
	"fmt"
	"strings"

	"fencer/cs"
)

// Harness is the C program that runs a system on the CPU (fencer run
// --hw). Run as
//
//	harness ROUNDS MILLIS ITERATIONS SEED
//
// it runs ROUNDS rounds (0: no limit) or until MILLIS milliseconds have
// passed (0: no limit), whichever comes first, with at most ITERATIONS
// iterations of each loop that writes per process and round. It prints
// "progress N" lines while it runs and, at the end, "rounds N", "hits H"
// (the rounds that reached a bad state) and one "bad I H" line per bad
// state (I indexes Bad). It exits 2, saying why on stderr, when it cannot
// pin its threads to distinct CPUs.
type Harness struct {
	Source  []byte
	Threads int
	Bad     []string // the bad states, by the index the program prints
	// Forbidden is the number of bad states that are the system's Bad (in
	// its order); the others are failed asserts, of the processes
	// AssertProc (Bad[Forbidden+i] is in process AssertProc[i]).
	Forbidden  int
	AssertProc []int
	AssertPos  []cs.Pos // the position of each assert (AssertProc's order)
	Warnings   []string // where the harness is less faithful than the model (file:line:col: ...)
	// Parent is the process that runs on no CPU of its own, before and
	// after the threads (parent.go), or "". Threads counts the others.
	Parent string
}

// NewHarness writes the harness of sys.
func NewHarness(sys *cs.System) (_ *Harness, err error) {
	defer catch(&err)
	g := &gen{sys: sys, mode: harnessMode, shared: map[string]string{}, slotOf: map[[2]int]int{}}
	if len(sys.Procs) == 0 {
		return nil, fmt.Errorf("%s: no process to run", sys.File.Name)
	}
	h := &Harness{Threads: len(sys.Procs)}
	if par, ok := parentOf(sys); ok {
		g.parent, h.Threads, h.Parent = &par, len(sys.Procs)-1, sys.Procs[par.proc].Name
	}
	for _, b := range sys.Bad {
		for j, pi := range b.Procs {
			key := [2]int{pi, int(b.Locs[j])}
			if _, ok := g.slotOf[key]; !ok {
				g.slotOf[key] = len(g.slots)
				g.slots = append(g.slots, slot{proc: pi, loc: b.Locs[j]})
			}
		}
		h.Bad = append(h.Bad, badName(sys, b))
	}
	h.Forbidden = len(sys.Bad)
	for pi, p := range sys.Procs {
		seen := map[cs.Pos]bool{}
		for _, e := range p.Edges {
			if p.ErrLoc >= 0 && e.To == p.ErrLoc && !seen[e.Pos] {
				seen[e.Pos] = true
				g.asserts = append(g.asserts, assertBad{proc: pi, pos: e.Pos})
				h.AssertProc = append(h.AssertProc, pi)
				h.AssertPos = append(h.AssertPos, e.Pos)
				h.Bad = append(h.Bad, AssertName(sys.Position(e.Pos), p.Name))
			}
		}
	}
	g.global = newNamer(runtimeNames...)
	for _, v := range sys.Shared {
		g.shared[v.Name] = g.global.name("s_" + v.Name)
	}
	for i := range sys.Procs {
		g.procFn = append(g.procFn, g.global.name(fmt.Sprintf("proc%d", i)))
	}

	nslot := max(len(g.slots), 1)
	g.printf("/* The harness of %s, written by fencer run --hw (docs/hw.md).\n", cComment(sys.File.Name))
	g.printf(" * Build: gcc -O2 -pthread -fwrapv -o harness harness.c\n")
	g.printf(" * Run:   ./harness ROUNDS MILLIS ITERATIONS SEED */\n")
	parentProc, lead := -1, 0
	if g.parent != nil {
		parentProc = g.parent.proc
		if parentProc == 0 {
			lead = 1
		}
	}
	// NT processes, each with its record in T; NW of them are threads (all
	// but the parent, PARENT, or -1); LEAD is the thread that ends rounds.
	g.printf("#define NT %d\n#define NW %d\n#define PARENT %d\n#define LEAD %d\n#define NSLOT %d\n#define NBAD %d\n",
		len(sys.Procs), h.Threads, parentProc, lead, nslot, len(h.Bad))
	g.printf("%s", runtimeHead)
	for _, v := range sys.Shared {
		g.printf("static volatile long %s __attribute__((aligned(64))); /* %s */\n", g.shared[v.Name], cComment(v.Name))
	}
	g.printf("\nstatic void reset_shared(void)\n{\n")
	for _, v := range sys.Shared {
		if v.Init.Nondet {
			g.printf("\t%s = rnd_val(&T[0]);\n", g.shared[v.Name])
		} else {
			g.printf("\t%s = %dL;\n", g.shared[v.Name], v.Init.Value)
		}
	}
	g.printf("}\n")
	for i := range sys.Procs {
		g.printf("\n/* %s */", cComment(sys.Procs[i].Name))
		if err := g.newProc(i).function(); err != nil {
			return nil, err
		}
	}
	g.printf("\nstatic void run_proc(struct thr *t)\n{\n\tswitch (t->id) {\n")
	for i := range sys.Procs {
		if i != parentProc {
			g.printf("\tcase %d: %s(t); break;\n", i, g.procFn[i])
		}
	}
	g.printf("\t}\n}\n")
	// The parent: its start before the round (up to where it waits for
	// the threads), its end after it (docs/hw.md).
	g.printf("\nstatic void parent_run(int resume)\n{\n")
	if g.parent != nil {
		g.printf("\t%s(&T[PARENT], resume);\n", g.procFn[parentProc])
	} else {
		g.printf("\t(void)resume;\n")
	}
	g.printf("}\n")

	// The bad states: which threads at which slots, or which failed assert.
	g.printf("\nstatic int reached(int b)\n{\n\tswitch (b) {\n")
	for bi, b := range sys.Bad {
		th, sl := make([]string, len(b.Procs)), make([]string, len(b.Procs))
		for j, pi := range b.Procs {
			th[j] = fmt.Sprint(pi)
			sl[j] = fmt.Sprint(g.slotOf[[2]int{pi, int(b.Locs[j])}])
		}
		if hasDup(b.Procs) { // a process is at one location at a time (the front end refuses this)
			g.printf("\tcase %d: return 0;\n", bi)
			continue
		}
		g.printf("\tcase %d: { static const int th[] = {%s}, sl[] = {%s}; return overlap(%d, th, sl); } /* %s */\n",
			bi, strings.Join(th, ", "), strings.Join(sl, ", "), len(b.Procs), cComment(h.Bad[bi]))
	}
	for i, a := range g.asserts {
		code := len(sys.Bad) + i
		g.printf("\tcase %d: return T[%d].err == %d; /* %s */\n", code, a.proc, code+1, cComment(h.Bad[code]))
	}
	g.printf("\t}\n\treturn 0;\n}\n")
	g.printf("%s", runtimeTail)
	h.Source = g.buf.Bytes()
	h.Warnings = g.warnings
	return h, nil
}

// AssertName is the name of the bad state "the assert at where fails in
// process proc".
func AssertName(where cs.Position, proc string) string {
	return fmt.Sprintf("assert at %s fails in %s", where, proc)
}

// runtimeNames are the names the harness's runtime defines.
var runtimeNames = strings.Fields(`NT NW PARENT LEAD parent_run parent_parked NSLOT NBAD iv_t thr T ITERATIONS SPINCAP IVCAP ndone hwlock STAMP rdtsc STAMP_INF REC
	rnd rnd_below rnd_val pick spin_stop hw_lock hw_unlock overlap reset_shared run_proc reached bar_count bar_sense stop
	start_at SYNC_CYCLES JITTER_CYCLES max_rounds max_millis rounds_done hits bad_hits t_start t_print barrier
	millis_since reset_round end_round worker LONG_MAX LONG_MIN`)

// cComment makes s safe inside a C comment.
func cComment(s string) string { return strings.ReplaceAll(s, "*/", "* /") }

func hasDup(xs []int) bool {
	seen := map[int]bool{}
	for _, x := range xs {
		if seen[x] {
			return true
		}
		seen[x] = true
	}
	return false
}
