// Package cs is the front end of fencer: it reads a program of the .cs
// language (../shared/LANGUAGE.md, docs/language.md) and builds the
// concurrent system of the paper: per process an automaton whose edges carry
// one operation, plus the bad states and the fence sites.
//
// # Pipeline
//
// Scanner (scanner.go) → ParseProgram (parser.go, syntax tree in ast.go) →
// Lower (lower.go; declarations in decls.go, names in resolve.go; per
// process automaton.go, stmts.go, exprs.go, atomic.go) → *System
// (system.go). Parse and ParseFile run all of it. Errors are collected,
// never panicked: every entry point returns a sorted ErrorList of
// "file:line:col: message" errors (at most MaxErrors of them, one per line)
// and a nil System.
//
// # Lowering rules
//
//   - Names resolve innermost first: for/template index, local, shared,
//     const. Consts may only use consts declared before them; everything
//     else at top level may appear in any order.
//   - Arrays are one scalar per element: "flag[0]"; locals are qualified by
//     their process: "P[0].r", "Main.c[1]". Temporaries are "P[0].$0",
//     "P[0].$1", ...: numbered from $0 in every statement and added to
//     Process.Locals once. Template instances are "P[0]", "P[1]", ... with
//     Process.Template "P".
//   - Every occurrence of a shared variable in an expression is one OpRead
//     into a fresh temporary, left to right, before the statement's effect;
//     && and || do not skip reads. The expressions of the ops then mention
//     only locals and constants. "r = x;" is a single OpRead into r. An int
//     used as a condition means != 0; a comparison used as an int is
//     ite(c, 1, 0); true is 1 and false is 0.
//   - x = e (x shared): reads, then OpWrite. r = e: reads, then OpAssign. r = *: OpHavoc
//     (for a shared target: havoc a temporary, then write it). assume(e):
//     reads, OpAssume. assert(e): reads, then OpAssume(e) onwards and
//     OpAssume(!e) to the process's ErrLoc (created only if the process has
//     an assert). fence: OpFence; fence store: OpFence with Fence StoreFence. skip and ";": nothing. goto L: an
//     OpAssume(true) edge to L.
//   - if (c): reads, OpAssume(c) and OpAssume(!c) edges (both
//     OpAssume(true) for "*"). while (c): a head location where the reads of
//     c happen on every iteration, OpAssume(c) into the body, which comes
//     back to the head, and OpAssume(!c) to the exit. for (j in A..B) is
//     unrolled with j constant (no copy when A > B).
//   - A label is the location before the first operation of its statement
//     (for if and while: the first read of the condition, the loop head).
//     A labelled statement with no operation (skip, ";", an empty block or
//     for) is one OpAssume(true) step from the label's location, so that
//     the label is a location of its own and never merged into the join of
//     a branch or loop (LANGUAGE.md: a label means "about to execute it").
//   - atomic { ... }: one OpAtomic edge per path through the block, with
//     Body the straight-line micro-ops (OpRead, OpWrite, OpAssign, OpHavoc,
//     OpAssume for branch conditions; a constant-false branch is dropped).
//     A failing assert inside ends its path with OpAssume(!e) and goes to
//     ErrLoc. Writes inside atomic are not fence sites.
//   - r = cas(x, e1, e2), r = fetch_add(x, e), r = swap(x, e): the reads of
//     the arguments, then one atomic step (two OpAtomic edges for cas, one
//     per outcome) whose body reads x into a temporary, writes x and assigns
//     r last. A shared r gets the result through a temporary and an ordinary
//     OpWrite after the step.
//   - forbidden A@l, B@m; is one BadState; mutex l; is one BadState per
//     unordered pair of distinct processes with label l.
//   - Locations are numbered densely from 0 (the initial one). LocPos[l] is
//     the statement about to run at l; Edge.Pos is the statement, or the
//     shared variable for a read.
//
// # Fence sites
//
// System.Sites has one Site per program point of the source (sites.go):
// after every statement of a block (the process body included), before the
// first statement of the body of an if, else, while or for, and before and
// after such a body without braces (BareBody), sorted by offset. One site
// serves every template instance and every unrolled copy of its
// statement. Edge.Points lists the sites control passes right after the
// edge when it falls through to the next statement (a goto passes none, a
// statement without operations passes its point with the one before it;
// a point reached with no edge after a label is passed by the label's
// gotos too). With Options.Reconsider the full fence statements of the
// source lower to nothing and the point after each is flagged Site.Fence.
//
// System.WithFenceKinds adds fence steps at sites without a new text;
// SameAutomata (iso.go) tells whether two systems, such as a patched text
// read again and WithFenceKinds of the same fences, have the same runs
// because their automata are the same up to the numbering of locations
// and the merging of locations with the same future.
//
// # Limits
//
// MaxInputSize (1 MiB of source), MaxProcs (64 processes), MaxInstances (64
// per template), MaxArraySize (4096), MaxStmts and MaxEdges (200,000 after
// expansion; micro-ops of atomic bodies count as edges), MaxVars (100,000
// scalars), MaxDepth (200 levels of nesting: blocks, statements,
// parentheses and operator chains together) and MaxPaths (1024 paths per
// atomic block). Anything beyond them is an error, not a crash.
package cs
