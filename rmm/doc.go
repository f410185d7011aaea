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
//   - forbidden L1 L2 ...; lists one label (or '*') per process; each
//     list is one forbidden declaration.
//
// # Domains
//
// "x = 0 : [0:2]" declares a domain. As in Memorax's manual (the rules of
// writes, assignments, assigning reads and cas), a step whose value leaves
// the domain is not enabled: the process waits there. A write or cas
// stores e only after assume(lo <= e && e <= hi) (nothing for a constant
// inside the domain, assume(false) for one outside); an assignment to a
// register with a domain likewise; an assigning read into such a register
// is retried while the value read is outside ("r = x; while (!(lo <= r &&
// r <= hi)) r = x;", which reaches the states of a read that waits; none
// when x's domain lies inside the register's and x starts at a constant;
// in a locked block an assume follows the read); a register "= *" starts
// with an assume of its domain. A variable or register "= * : [lo:hi]"
// starts at one of lo, ..., hi, as in Memorax: the lowered declaration
// says so (cs.Init.Ranged, set after lowering), and the explicit-value
// analysis explores one initial state per value (domains/nondet.go); a
// "= *" without a domain (or ": Z") starts at any integer. The domains of
// writes are not fed to the explicit-value analysis: it finds the values
// of the program itself.
//
// Options.StrictDomains (rmm.Reader{Options: ...}) reads domains as
// fencer did before: a constant written outside the domain is an error at
// the write, and a write or cas of a register expression gets
// assert(lo <= e && e <= hi), so a run that would leave the domain is a bad
// state reported with its trace; register domains are not enforced. It
// shows where a model meant never to leave its domains does.
//
// # Fences and what is not read
//
// fence is fence;, ssfence is fence store;, llfence (Memorax's load-load
// fence) is a skip: loads are never reordered with loads under SC, TSO
// and PSO. syncrd and syncwr (the synchronising accesses of Memorax's
// VIPS-M model, with no rule under TSO or PSO; Memorax's own pb engine
// refuses them too, docs/formats.md), slocked (no TSO or PSO rule
// in Memorax's manual) and the me/other/@ expressions are positioned
// errors. A pointer location [e] is, as in Memorax, a
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
// else or while. The rest of the text is unchanged. EditFences also
// writes store fences (ssfence, in the same places) and removes fence
// statements (insert --reconsider), for cs.FenceEditor.
package rmm
