package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cgen"
	"fencer/cs"
	"fencer/hwrun"
	"fencer/memmodel"
)

// checkModel is run --hw --check-model FILE...: the model checked against
// the machine (make hwcheck). Each program runs on the CPU; every bad state
// the CPU reached must be reachable under fencer's TSO semantics (observed
// ⊆ allowed, litmus7's soundness check), and for every bad state TSO
// allows and SC forbids (a relaxed outcome) the table says whether the CPU
// showed it. Each bad state is verified alone: the system with only that
// forbidden combination, or only that process's asserts.
func checkModel(c *cli.Context) error {
	files := c.Args().Slice()
	if len(files) == 0 {
		return fail(exitInput, "run --check-model: want one or more FILE arguments")
	}
	opt, err := hwOptions(c)
	if err != nil {
		return err
	}
	quiet = true // one table, no progress bars
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		return fail(exitUnknown, "cannot start the SMT solver: %v", err)
	}
	defer sol.Close()
	fmt.Println("| test | threads | bad state | SC | TSO | rounds | rounds that reached it | result |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	var failed, inputErrs, skipped, relaxed, relaxedSeen, ran int
	for _, file := range files {
		sys, _, err := parsePath(c, file, c.String("format"))
		if err != nil {
			fmt.Fprintf(os.Stderr, "%v\n", err)
			inputErrs++
			continue
		}
		if err := hwrun.HostCheck(cgen.CPUs(sys)); err != nil {
			fmt.Printf("| %s | %d | | | | | | skipped: %d threads, %d CPUs |\n", file, len(sys.Procs), cgen.CPUs(sys), runtime.NumCPU())
			skipped++
			continue
		}
		res, err := runVariant(c, &variantRun{name: "original", sys: sys}, opt)
		if err != nil {
			return err
		}
		ran++
		h, _ := cgen.NewHarness(sys)
		for i, b := range res.Bad {
			sub := onlyBad(sys, h, i)
			sc := reachable(c, sol, sub, memmodel.SC)
			tso := reachable(c, sol, sub, memmodel.TSO)
			result := ""
			switch {
			case tso == "forbidden" && b.Hits > 0 && len(h.Warnings) > 0:
				result = "reached, TSO forbids it; the harness is approximate here (an atomic block over several variables): not compared"
			case tso == "forbidden" && b.Hits > 0:
				result = "**FAIL: TSO forbids it, the CPU reached it**"
				failed++
			case tso == "unknown":
				result = "TSO verdict unknown: not compared"
			case tso == "forbidden":
				result = "forbidden, not seen"
			case sc == "allowed":
				result = map[bool]string{true: "seen (SC allows it)", false: "not seen (SC allows it)"}[b.Hits > 0]
			default:
				relaxed++
				if b.Hits > 0 {
					relaxedSeen++
					result = "relaxed outcome seen"
				} else {
					result = "relaxed outcome not seen"
				}
			}
			fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s |\n", file, len(sys.Procs), strings.ReplaceAll(b.Name, "|", "\\|"),
				sc, tso, commas(res.Rounds), commas(b.Hits), result)
		}
	}
	fmt.Printf("\n%d programs run, %d skipped (more threads than CPUs), %d not read; relaxed outcomes TSO allows: %d seen of %d; "+
		"outcomes TSO forbids seen: %d.\n", ran, skipped, inputErrs, relaxedSeen, relaxed, failed)
	fmt.Println(noProof)
	switch {
	case failed > 0:
		return fail(exitBad, "run --check-model: the CPU reached %s that fencer's TSO semantics says unreachable", plural(failed, "bad state"))
	case inputErrs > 0:
		return fail(exitInput, "")
	}
	return nil
}

// onlyBad returns sys with the i-th bad state of its harness h as its only
// bad state: one forbidden combination, or the asserts of one process.
func onlyBad(sys *cs.System, h *cgen.Harness, i int) *cs.System {
	out := *sys
	out.Bad = nil
	keep := -1
	if i < h.Forbidden {
		out.Bad = []cs.BadState{sys.Bad[i]}
	} else {
		keep = h.AssertProc[i-h.Forbidden]
	}
	out.Procs = make([]*cs.Process, len(sys.Procs))
	for pi, p := range sys.Procs {
		q := *p
		if pi != keep {
			q.ErrLoc = -1
		}
		out.Procs[pi] = &q
	}
	return &out
}

// reachable verifies sys under m: "allowed" (a bad state is reachable),
// "forbidden" or "unknown".
func reachable(c *cli.Context, sol *cegar.Z3Solver, sys *cs.System, m memmodel.Model) string {
	opt, err := engineOptions(c, m)
	if err != nil {
		return "unknown"
	}
	ctx := c.Context
	if d := c.Duration("timeout"); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	stopWatch := sol.InterruptOn(ctx)
	defer stopWatch()
	r, err := cegar.Verify(ctx, sys, sol, opt)
	if err != nil {
		return "unknown"
	}
	switch r.Verdict {
	case cegar.Correct:
		return "forbidden"
	case cegar.Unsafe, cegar.SCBug:
		return "allowed"
	}
	return "unknown"
}
