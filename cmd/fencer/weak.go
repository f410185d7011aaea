package main

// verify, insert and check under the axiomatic models (arm, riscv, rmo):
// the bounded explorer of execution graphs (package execgraph), the
// cheapest changes (package weakfix), and the unbounded proof from the SC
// engine and the robustness analysis.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
	"fencer/execgraph"
	"fencer/formats"
	"fencer/memmodel"
	"fencer/races"
	"fencer/report"
	"fencer/report/htmlpage"
	"fencer/robust"
	"fencer/weakfix"
)

// axiomatic reports whether m is checked by the explorer of execution
// graphs rather than the store-buffer engine.
func axiomatic(m memmodel.Model) bool { return m.Axioms() != nil }

var unrollFlag = &cli.IntFlag{Name: "unroll", Value: execgraph.DefaultUnroll,
	Usage: "under arm, riscv and rmo: a run passes each control location at most `K` times (loops unrolled); " +
		"a loop iteration that writes nothing and changes no local is never needed (the spin rule)"}

func weakOptions(c *cli.Context, sys *cs.System) execgraph.Options {
	opt := execgraph.Options{Unroll: c.Int("unroll")}
	if d, ok := sys.Reader.(interface{ KeepsDependencies() bool }); ok && !d.KeepsDependencies() {
		opt.NoDeps = true
	}
	return opt
}

// forModel is sys read for model m: a C program is read with the mapping
// of C11 atomics to m's instructions (C-INPUT.md), any other as it is.
func forModel(c *cli.Context, sys *cs.System, m memmodel.Model) (*cs.System, error) {
	f := formats.OfSystem(sys)
	if f == nil || f.Name != "c" {
		return sys, nil
	}
	opt, err := formatOptions(c, f, false)
	if err != nil {
		return nil, err
	}
	if opt == nil {
		opt = formats.Options{}
	}
	opt[formats.Target] = []string{m.Name()}
	s, _, err := f.Parse(sys.File.Name, sys.File.Src, opt)
	return s, err
}

// canFence says which sites insert may put a barrier at: all, or what the
// file's reader can write.
func canFence(sys *cs.System) func(int) bool {
	if r, ok := sys.Reader.(interface{ CanFence(*cs.System, int) bool }); ok {
		return func(s int) bool { return r.CanFence(sys, s) }
	}
	return nil
}

// weakContext is the command's context with its timeout and SIGINT.
func weakContext(c *cli.Context) (context.Context, func()) {
	ctx, stop := interruptible(c.Context)
	if d := c.Duration("timeout"); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		return ctx, func() { cancel(); stop() }
	}
	return ctx, stop
}

// proof says how far a verdict of no bad execution holds.
type proof struct {
	Kind string `json:"kind"` // exhaustive, sc+robust, bounded
	// Why the unbounded proof fails, for a bounded one: the critical
	// cycle left, or what the SC engine found.
	Why    string `json:"why,omitempty"`
	Unroll int    `json:"unroll,omitempty"`
}

func (p proof) String() string {
	switch p.Kind {
	case "exhaustive":
		return "every execution explored (no loop cut by the bound)"
	case "sc+robust":
		return "correct under SC and robust: every execution is SC-equivalent"
	}
	return fmt.Sprintf("within %d iterations of each loop; not proved beyond: %s", p.Unroll, p.Why)
}

// scVerdict is the SC verdict of the program as read, which no change
// alters: one run of the CEGAR engine under SC, made when first needed.
type scVerdict struct {
	c    *cli.Context
	sys  *cs.System
	done bool
	why  string // "" when correct under SC, else why the proof fails there
}

func (v *scVerdict) get() string {
	if v.done {
		return v.why
	}
	v.done = true
	r, _, err := runEngine(v.c, v.sys, memmodel.SC, false)
	switch {
	case err != nil:
		v.why = "the SC engine failed: " + err.Error()
	case r.Verdict == cegar.SCBug:
		v.why = "a bad state is reachable under SC beyond the bound (fencer verify --model sc)"
	case r.Verdict != cegar.Correct:
		v.why = "the SC engine: " + r.Reason
	}
	return v.why
}

// unbounded is the proof for every run of psys, the program as patched:
// sc+robust when psys is robust under m and the program correct under
// SC, else a bounded one (within unroll iterations) that says which of
// the two fails.
func unbounded(sc *scVerdict, psys *cs.System, m memmodel.Model, unroll int) proof {
	an := robust.Analyze(psys, m)
	if ok, pair := an.Robust(nil); !ok {
		return proof{Kind: "bounded", Unroll: unroll, Why: "critical cycle " + an.Describe(pair.Cycle)}
	}
	if why := sc.get(); why != "" {
		return proof{Kind: "bounded", Unroll: unroll, Why: why}
	}
	return proof{Kind: "sc+robust"}
}

// proveWeak says how far "no bad execution" holds for psys when the
// explorer found none: for every execution when no run was cut and no
// value drawn from a finite set; else as unbounded says.
func proveWeak(sc *scVerdict, psys *cs.System, m memmodel.Model, r *execgraph.Result) proof {
	if !r.Bounded && !r.Approx {
		return proof{Kind: "exhaustive"}
	}
	return unbounded(sc, psys, m, r.Unroll)
}

// weakReport is the JSON report of verify and insert under the axiomatic
// models (docs/report.md).
type weakReport struct {
	Version int                `json:"version"`
	Command string             `json:"command"`
	File    string             `json:"file"`
	Model   string             `json:"model"`
	Verdict string             `json:"verdict"` // correct, unsafe, sc-bug, unknown
	Proof   *proof             `json:"proof,omitempty"`
	Reason  string             `json:"reason,omitempty"`
	Fences  []weakChange       `json:"fences"`
	Cost    int                `json:"cost"`
	Witness *execgraph.Witness `json:"witness,omitempty"`
	// Alternatives are the other sets of as many changes (--all).
	Alternatives [][]weakChange `json:"alternatives,omitempty"`
	TimeSeconds  float64        `json:"time_seconds"`
	Warnings     []string       `json:"warnings,omitempty"`
	Races        []races.Entry  `json:"races,omitempty"`

	src []byte // the program's text, for --html
}

// weakChange is one change of the answer in the report.
type weakChange struct {
	Kind      string             `json:"kind"` // "barrier" or "order"
	Line      int                `json:"line"`
	Col       int                `json:"col,omitempty"`
	Statement string             `json:"statement"`
	Barrier   string             `json:"barrier,omitempty"` // the instruction: dmb ishld
	FenceKind string             `json:"fence_kind,omitempty"`
	Order     string             `json:"order,omitempty"` // acquire, release
	Cost      int                `json:"cost"`
	Needed    *execgraph.Witness `json:"needed,omitempty"`
}

func changeLine(sys *cs.System, ch weakfix.Change, text func(cs.Pos) string) weakChange {
	if ch.Site != nil {
		return weakChange{Kind: "barrier", Line: sys.File.Line(ch.Site.Pos()), Statement: ch.Site.Text,
			Barrier: ch.Instr, FenceKind: ch.Kind.String(), Cost: ch.Cost, Needed: ch.Needed}
	}
	pos := sys.Position(ch.Pos)
	return weakChange{Kind: "order", Line: pos.Line, Col: pos.Col, Statement: text(ch.Pos), Order: ch.Ann.String(), Cost: ch.Cost, Needed: ch.Needed}
}

func describeChange(name string, wc weakChange) string {
	if wc.Kind == "barrier" {
		return fmt.Sprintf("%s:%d: %s after %s", name, wc.Line, wc.Barrier, wc.Statement)
	}
	return fmt.Sprintf("%s:%d:%d: %s made %s", name, wc.Line, wc.Col, wc.Statement, wc.Order)
}

// emitWeak writes the report of --json and the page of --html, if asked.
func emitWeak(c *cli.Context, rep *weakReport) error {
	if path := c.String("html"); path != "" {
		if err := writePage(path, weakPage(rep)); err != nil {
			return err
		}
	}
	if c.String("json") == "" {
		return nil
	}
	rep.Warnings, rep.Races = reportWarnings()
	return emitReport(c.String("json"), rep)
}

// weakPage is the page of --html under an axiomatic model: the graph of
// the execution that reaches a bad state, or of the execution each change
// forbids.
func weakPage(rep *weakReport) *htmlpage.Page {
	name := filepath.Base(rep.File)
	p := &htmlpage.Page{Title: fmt.Sprintf("fencer %s %s under %s: %s", rep.Command, name, strings.ToUpper(rep.Model), rep.Verdict), Source: htmlpage.Lines(rep.src)}
	if rep.Reason != "" {
		p.Summary = append(p.Summary, "why: "+rep.Reason)
	}
	if rep.Proof != nil {
		p.Summary = append(p.Summary, "proof: "+rep.Proof.String())
	}
	for i, wc := range rep.Fences {
		head := fmt.Sprintf("change %d of %d: %s", i+1, len(rep.Fences), describeChange(name, wc))
		p.Summary = append(p.Summary, head)
		p.Fenced = append(p.Fenced, wc.Line)
		if wc.Needed == nil {
			continue
		}
		p.Sections = append(p.Sections, htmlpage.Section{ID: fmt.Sprintf("change%d", i+1), Heading: head, Graph: wc.Needed,
			Notes: []string{"without it, this execution reaches a bad state"}, Change: wc.Line, ChangeOrder: wc.Kind == "order"})
	}
	if rep.Witness != nil {
		p.Sections = append(p.Sections, htmlpage.Section{ID: "execution", Heading: fmt.Sprintf("an execution under %s that reaches a bad state", strings.ToUpper(rep.Model)),
			Graph: rep.Witness})
	}
	return p
}

// weakVerify is verify under an axiomatic model.
func weakVerify(c *cli.Context, sys *cs.System, m memmodel.Model) error {
	start := time.Now()
	sys, err := forModel(c, sys, m)
	if err != nil {
		return inputError(c, err)
	}
	ctx, stop := weakContext(c)
	defer stop()
	out := humanOut(c)
	name := sys.File.Name
	rep := &weakReport{Version: report.Version, Command: "verify", File: name, Model: m.Name(), Fences: []weakChange{}, src: sys.File.Src}
	text := report.StatementText(sys)
	// unknown reports a verdict of unknown for why (exit 3)
	unknown := func(why string) error {
		rep.Verdict, rep.Reason = "unknown", why
		rep.TimeSeconds = time.Since(start).Seconds()
		if err := emitWeak(c, rep); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: unknown under %s: %s\n", name, m, why)
		return fail(exitUnknown, "")
	}
	if err := execgraph.Unsupported(sys); err != nil {
		return unknown(err.Error())
	}
	sc := &scVerdict{c: c, sys: sys}
	first := unbounded(sc, sys, m, 0) // the proof without changes
	if first.Kind == "sc+robust" {
		rep.Verdict, rep.Proof = "correct", &first
		rep.TimeSeconds = time.Since(start).Seconds()
		if err := emitWeak(c, rep); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: correct under %s: no bad state is reachable (%s)\n", name, m, rep.Proof)
		return nil
	}
	ex, err := execgraph.New(ctx, sys, m, weakOptions(c, sys))
	var res *execgraph.Result
	if err == nil {
		res, err = ex.Check(ctx, execgraph.Changes{})
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return unknown("time limit reached (--timeout)")
	case err != nil:
		return unknown(err.Error())
	}
	code := 0
	switch res.Verdict {
	case execgraph.Bad, execgraph.SCBug:
		rep.Verdict = "unsafe"
		if res.Verdict == execgraph.SCBug {
			rep.Verdict = "sc-bug"
		}
		rep.Witness = ex.Witness(res.Witness, text)
		fmt.Fprintf(out, "%s: %s under %s: a bad state is reachable in this execution:\n", name, rep.Verdict, m)
		rep.Witness.Print(out)
		code = exitBad
	case execgraph.Unknown:
		rep.Verdict, rep.Reason = "unknown", res.Reason
		fmt.Fprintf(out, "%s: unknown under %s: %s\n", name, m, res.Reason)
		code = exitUnknown
	default:
		p := proof{Kind: "exhaustive"}
		if res.Bounded || res.Approx {
			p = first // what stopped the unbounded proof of this very program
			p.Unroll = res.Unroll
		}
		rep.Proof = &p
		if p.Kind == "bounded" {
			rep.Verdict = "unknown"
			rep.Reason = "no bad execution within the bound"
			fmt.Fprintf(out, "%s: correct under %s within %d iterations: no bad execution with each loop unrolled %d times; not proved beyond: %s\n",
				name, m, p.Unroll, p.Unroll, p.Why)
			code = exitUnknown
		} else {
			rep.Verdict = "correct"
			fmt.Fprintf(out, "%s: correct under %s: no bad state is reachable (%s)\n", name, m, p)
		}
	}
	rep.TimeSeconds = time.Since(start).Seconds()
	if err := emitWeak(c, rep); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(os.Stderr, "%d candidate executions checked, %.2fs\n", res.Checks, rep.TimeSeconds)
	}
	if code != 0 {
		return fail(code, "")
	}
	return nil
}

// raiser is what a reader may offer: whether an access of its file can be
// raised to acquire or release (C: only accesses of atomic objects).
type raiser interface {
	CanRaise(sys *cs.System, proc, edge int) bool
}

// canRaise says which accesses insert may raise: in .cs a plain write, or
// a plain read into a variable written as "r = x;"; in another format
// what its reader says.
func canRaise(sys *cs.System) func(p, e int) bool {
	if sys.Reader != nil {
		r, ok := sys.Reader.(raiser)
		if !ok {
			return nil
		}
		return func(p, e int) bool { return r.CanRaise(sys, p, e) }
	}
	return func(p, e int) bool {
		op := sys.Procs[p].Edges[e].Op
		switch op.Kind {
		case cs.OpWrite:
			return op.Ann == 0
		case cs.OpRead:
			return op.Ann == 0 && !cs.IsTemp(op.Local)
		}
		return false
	}
}

// weakAnswer is what insert and check find under an axiomatic model.
type weakAnswer struct {
	verdict weakfix.Verdict
	changes []weakfix.Change
	cost    int
	proof   proof
	patched []byte
	witness *execgraph.Witness // sc-bug
	reason  string             // unknown
	// fallback: the changes are robust.MinFences', not proved the fewest
	// for the property (fallbackWhy: why the explorer did not answer).
	fallback    bool
	fallbackWhy string
	found       int
	checks      int
	// alternatives: other sets of as many changes, each verified (--all)
	alternatives [][]weakfix.Change
}

// solveWeak finds the changes for sys under m: none when sys is robust
// and correct under SC; else weakfix's, verified again on the patched
// text; else, when the explorer hits a limit, the robustness fallback.
// An error is an internal one (exit 3).
func solveWeak(c *cli.Context, sys *cs.System, m memmodel.Model, text func(cs.Pos) string) (*weakAnswer, error) {
	if err := execgraph.Unsupported(sys); err != nil {
		return &weakAnswer{verdict: weakfix.Unknown, reason: err.Error()}, nil
	}
	sc := &scVerdict{c: c, sys: sys}
	if p := unbounded(sc, sys, m, 0); p.Kind == "sc+robust" {
		return &weakAnswer{verdict: weakfix.Correct, proof: p, patched: sys.File.Src}, nil
	}
	ctx, stop := weakContext(c)
	defer stop()
	r, err := weakfix.Insert(ctx, sys, m, weakfix.Options{Explore: weakOptions(c, sys), CanRaise: canRaise(sys), CanFence: canFence(sys), All: allOf(c)}, text)
	if err != nil || r.Verdict == weakfix.Unknown {
		why := ""
		if err != nil {
			why = err.Error()
		} else {
			why = r.Reason
		}
		if ctx.Err() == nil {
			if a, ok, ferr := robustFallback(sc, sys, m, why); ok || ferr != nil {
				return a, ferr
			}
		} else {
			why = "time limit reached (--timeout)"
		}
		return &weakAnswer{verdict: weakfix.Unknown, reason: why}, nil
	}
	a := &weakAnswer{verdict: r.Verdict, changes: r.Changes, cost: r.Cost, witness: r.Witness, found: r.Found, checks: r.Checks, alternatives: r.Alternatives}
	if r.Verdict != weakfix.Correct {
		return a, nil
	}
	a.patched, err = weakfix.Patch(sys, r.Changes)
	if err != nil {
		return nil, err
	}
	// The final check: the patched text, read again, has no bad execution.
	psys, err := sys.Reparse(a.patched)
	if err != nil {
		return nil, fmt.Errorf("internal error: the patched program does not read back: %v", err)
	}
	again, err := execgraph.Explore(ctx, psys, m, weakOptions(c, sys))
	if err != nil || again.Verdict != execgraph.NoBad {
		return nil, fmt.Errorf("internal error: the patched program is not correct under %s: %v %v", m, again, err)
	}
	a.proof = proveWeak(sc, psys, m, again)
	return a, nil
}

// weakInsert is insert under an axiomatic model.
func weakInsert(c *cli.Context, sys *cs.System, m memmodel.Model) error {
	start := time.Now()
	if c.Bool("reconsider") {
		if sys.Reader != nil {
			return fail(exitInput, "insert: --reconsider under %s reads .cs files only (fencer cannot yet take barriers out of %s input)", m, sys.Reader.Format())
		}
		// the full fences of the source become candidate points
		rsys, err := sys.ReparseWith(sys.File.Src, true)
		if err != nil {
			return inputError(c, err)
		}
		sys = rsys
	}
	if c.Bool("robust") {
		sys, err := forModel(c, sys, m)
		if err != nil {
			return inputError(c, err)
		}
		return weakInsertRobust(c, sys, m)
	}
	sys, err := forModel(c, sys, m)
	if err != nil {
		return inputError(c, err)
	}
	name := sys.File.Name
	text := report.StatementText(sys)
	rep := &weakReport{Version: report.Version, Command: "insert", File: name, Model: m.Name(), Fences: []weakChange{}, src: sys.File.Src}
	a, err := solveWeak(c, sys, m, text)
	if err != nil {
		return fail(exitUnknown, "%s: %v", name, err)
	}
	finish := func() error {
		rep.TimeSeconds = time.Since(start).Seconds()
		return emitWeak(c, rep)
	}
	w := os.Stderr
	switch a.verdict {
	case weakfix.SCBug:
		rep.Verdict, rep.Witness = "sc-bug", a.witness
		if err := finish(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: sc-bug: wrong under SC, no change can help; the execution:\n", name)
		a.witness.Print(w)
		return fail(exitBad, "")
	case weakfix.Unknown:
		rep.Verdict, rep.Reason = "unknown", a.reason
		if err := finish(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: unknown under %s: %s\n", name, m, a.reason)
		return fail(exitUnknown, "")
	}
	rep.Verdict, rep.Proof, rep.Cost = "correct", &a.proof, a.cost
	for _, ch := range a.changes {
		rep.Fences = append(rep.Fences, changeLine(sys, ch, text))
	}
	for _, alt := range a.alternatives {
		var set []weakChange
		for _, ch := range alt {
			set = append(set, changeLine(sys, ch, text))
		}
		rep.Alternatives = append(rep.Alternatives, set)
	}
	if err := finish(); err != nil {
		return err
	}
	if err := writeOutput(c, name, sys.File.Src, a.patched); err != nil {
		return err
	}
	switch {
	case len(a.changes) == 0:
		fmt.Fprintf(w, "%s: correct under %s, no change needed (%s)\n", name, m, a.proof)
	case a.fallback:
		fmt.Fprintf(w, "%s: correct under %s with %s (%s; they cut every critical cycle, not proved the fewest for the property: %s):\n",
			name, m, plural(len(a.changes), "change"), a.proof, a.fallbackWhy)
	default:
		fmt.Fprintf(w, "%s: correct under %s with %s (the fewest, then the cheapest: cost %d; %s):\n",
			name, m, plural(len(a.changes), "change"), a.cost, a.proof)
	}
	for _, wc := range rep.Fences {
		fmt.Fprintf(w, "  %s\n", describeChange(name, wc))
	}
	for _, s := range weakfix.Removed(sys, a.changes) {
		fmt.Fprintf(w, "  %s:%d: fence removed\n", name, sys.File.Line(s.Pos()))
	}
	for i, alt := range rep.Alternatives {
		fmt.Fprintf(w, "other set %d of %d (verified):\n", i+2, len(rep.Alternatives)+1)
		for _, wc := range alt {
			fmt.Fprintf(w, "  %s\n", describeChange(name, wc))
		}
	}
	if c.Bool("explain") {
		for _, wc := range rep.Fences {
			if wc.Needed == nil {
				continue
			}
			fmt.Fprintf(w, "without %s, this execution reaches a bad state:\n", describeChange(name, wc))
			wc.Needed.Print(w)
		}
	}
	if !quiet && !a.fallback && len(a.changes) > 0 {
		fmt.Fprintf(w, "%d bad executions found on the way, %d candidate executions checked, %.2fs\n", a.found, a.checks, rep.TimeSeconds)
	}
	return nil
}

// weakCheckOne runs one expectation under an axiomatic model, as insert
// answers it.
func weakCheckOne(c *cli.Context, sys *cs.System, e formats.Expectation, res checkResult) checkResult {
	start := time.Now()
	sys, err := forModel(c, sys, e.Model)
	if err != nil {
		res.Got, res.Reason = "error", err.Error()
		return res
	}
	a, err := solveWeak(c, sys, e.Model, nil)
	res.TimeSeconds = time.Since(start).Seconds()
	if err != nil {
		res.Got, res.Reason = "error", err.Error()
		return res
	}
	switch a.verdict {
	case weakfix.SCBug:
		res.Got, res.Pass = "bug", e.Bug
	case weakfix.Correct:
		var fs []checkFence
		for _, ch := range a.changes {
			if ch.Site != nil {
				fs = append(fs, checkFence{Line: sys.File.Line(ch.Site.Pos()), Statement: ch.Instr + " after " + ch.Site.Text})
			} else {
				fs = append(fs, checkFence{Line: sys.Position(ch.Pos).Line, Statement: ch.Ann.String()})
			}
		}
		res.correct(e, fs)
		res.Reason = a.proof.String()
		if a.fallback {
			// the fewest barriers for robustness, not for the property
			res.Got, res.Pass = "unknown", false
			res.Reason = fmt.Sprintf("%d barriers that cut every critical cycle, not proved the fewest: %s", len(a.changes), a.fallbackWhy)
		}
	default:
		res.Got, res.Reason = "unknown", a.reason
	}
	return res
}

// robustFallback is the answer when the bounded explorer cannot finish
// (why): the fewest barriers that cut every critical cycle
// (robust.MinFences), kept when the program is correct under SC, so that
// the patched program is correct under m for every run; not proved the
// fewest changes for the property. ok is false when that fails too.
func robustFallback(sc *scVerdict, sys *cs.System, m memmodel.Model, why string) (*weakAnswer, bool, error) {
	if sc.get() != "" {
		return nil, false, nil
	}
	a, _, err := robustChanges(sys, m)
	if a == nil || err != nil {
		return nil, false, err
	}
	a.fallback, a.fallbackWhy = true, why
	a.proof = proof{Kind: "sc+robust", Why: "not proved the fewest changes: " + why}
	return a, true, nil
}

// robustChanges are the fewest barriers that cut every critical cycle of
// sys under m (robust.MinFences, each of the cheapest kind that cuts its
// pairs), written into the source and checked robust again; nil when no
// barrier set can (a pair no site cuts). minimal: proved the fewest.
func robustChanges(sys *cs.System, m memmodel.Model) (*weakAnswer, bool, error) {
	fs, err := robust.Analyze(sys, m).MinFences()
	if err != nil {
		return nil, false, nil
	}
	a := &weakAnswer{verdict: weakfix.Correct}
	for _, el := range fs.Elements() {
		ch := weakfix.Change{}
		ch.Site, ch.Kind = sys.Sites[el.Site], el.Kind
		if b, ok := memmodel.BarrierOf(m, el.Kind); ok {
			ch.Instr, ch.Cost = b.Name, b.Cost
		}
		a.changes = append(a.changes, ch)
		a.cost += ch.Cost
	}
	a.patched, err = weakfix.Patch(sys, a.changes)
	if err != nil {
		return nil, false, err
	}
	psys, err := sys.Reparse(a.patched)
	if err != nil {
		return nil, false, fmt.Errorf("internal error: the patched program does not read back: %v", err)
	}
	if ok, _ := robust.Analyze(psys, m).Robust(nil); !ok {
		return nil, false, fmt.Errorf("internal error: the patched program is not robust under %s", m)
	}
	return a, fs.Minimal, nil
}

// weakInsertRobust is insert --robust under an axiomatic model: the
// fewest barriers that make every execution SC-equivalent, whatever the
// property.
func weakInsertRobust(c *cli.Context, sys *cs.System, m memmodel.Model) error {
	start := time.Now()
	name := sys.File.Name
	text := report.StatementText(sys)
	rep := &weakReport{Version: report.Version, Command: "insert", File: name, Model: m.Name(), Fences: []weakChange{}, src: sys.File.Src}
	a, minimal, err := robustChanges(sys, m)
	if err != nil {
		return fail(exitUnknown, "%s: %v", name, err)
	}
	if a == nil {
		rep.Verdict, rep.Reason = "unknown", "no set of barriers cuts every critical cycle (a pair with no fence site between)"
		rep.TimeSeconds = time.Since(start).Seconds()
		if err := emitWeak(c, rep); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: unknown under %s: %s\n", name, m, rep.Reason)
		return fail(exitUnknown, "")
	}
	rep.Verdict, rep.Cost = "robust", a.cost
	for _, ch := range a.changes {
		rep.Fences = append(rep.Fences, changeLine(sys, ch, text))
	}
	rep.TimeSeconds = time.Since(start).Seconds()
	if err := emitWeak(c, rep); err != nil {
		return err
	}
	if err := writeOutput(c, name, sys.File.Src, a.patched); err != nil {
		return err
	}
	what := "the fewest"
	if !minimal {
		what = "not proved the fewest"
	}
	fmt.Fprintf(os.Stderr, "%s: robust under %s with %s (%s, cost %d): every execution is SC-equivalent\n", name, m, plural(len(a.changes), "barrier"), what, a.cost)
	for _, ch := range a.changes {
		fmt.Fprintf(os.Stderr, "  %s\n", describeChange(name, changeLine(sys, ch, text)))
	}
	return nil
}
