// Package rmm reads Memorax models (.rmm files, the input language of the
// Memorax tool of the SAS 2012 paper's authors) and builds the concurrent
// system that package cs builds for a .cs program. It does not translate
// text: it builds the .cs syntax tree (cs.Program) with positions in the
// .rmm file and lowers it with cs.Lower, so a model has exactly the
// semantics of the .cs language (docs/language.md) and every error, trace
// line and fence site is reported at file:line:col of the .rmm file.
//
// # Pipeline
//
// lex (lex.go: tokens, /* */ and // comments) → expand (macro NAME(p, ...)
// ... endmacro definitions and NAME(args) calls, at the token level as
// Memorax's preprocessor does; tokens keep the position where they are
// written) → parseModel (parse.go: forbidden, predicates (skipped), data,
// process sections) → builder (build.go: the text of each process instance
// is parsed into cs statements) → cs.Lower.
//
// # Mapping
//
//   - process(N) gives N processes; all processes are numbered 0, 1, ... in
//     file order and named P0, P1, ... A statement of a process(N) is one
//     fence site for all its instances, as a statement of a .cs template.
//   - Global data are shared variables of the same name. The data of a
//     process p are shared variables "name_p"; x[my] is the own one, x[k]
//     Memorax's k-th other process (k if k < p, else k+1). Registers are
//     locals named without the '$'. A name that clashes with another or
//     with a .cs keyword gets a suffix ("_2").
//   - read: $r := x is r = x; read: x = e is assume(x == e) (one read);
//     write: x := e is x = e (a fence site, its text "write: x := e");
//     $r := e is an assignment; assume: b, nop, goto, if/then/else,
//     while/do, { ... } as in .cs; either { A or B or C } is
//     if (*) A else if (*) B else C.
//   - locked write: x := e is atomic { x = e; }; cas(x, e1, e2) is
//     atomic { assume(x == e1); x = e2; } (it blocks when x != e1, as in
//     Memorax); locked { A or B } is atomic { if (*) A else B }. A locked
//     block without a write is refused: Memorax does not fence it, while a
//     .cs atomic block always waits for an empty buffer.
//   - fence is fence;. forbidden L1 L2 ...; lists one label (or '*') per
//     process; each list is one forbidden declaration.
//
// # Domains
//
// "x = 0 : [0:2]" declares a domain. Memorax blocks a write whose value is
// outside it; fencer does not model blocking. Instead it checks that no
// write leaves the domain: a constant value outside it is an error at the
// write, and a write of a register expression gets an assert before it, so
// a run that would leave the domain is a bad state reported with its trace
// (the verdict is then sc-bug or unsafe). When fencer finds a model correct,
// no write leaves its domain in any run, so Memorax's blocking never
// happens and the two semantics agree. Domains of registers, and "= *"
// initial values, are not restricted: a register or a "*" variable may hold
// any integer (an over-approximation: a correct verdict holds for the
// domains too). Domains are not fed to the explicit-value analysis.
//
// # Not supported
//
// ssfence (a store-store fence: fencer has no store-store fence yet),
// syncrd, syncwr, slocked and llfence, and the me/other/@ expressions:
// each is a positioned error. A pointer location [e] is, as in Memorax, a
// choice between the global variables: the statement becomes
// either { assume: e = 0; S(v0) or ... or assume: e = n; S(vn) } over the
// global variables v0 ... vn in declaration order (only v_e when e is a
// constant); it stays one fence site.
//
// # Writing fences back
//
// InsertFences (patch.go) puts "fence;" on a line of its own after a write
// followed by ';', "; fence" after a write that ends a list, and
// "{ write: ...; fence }" around a write that is the whole body of an if,
// else or while. The rest of the text is unchanged.
package rmm
