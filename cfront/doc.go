// Package cfront is fencer's C front end: it reads one C11 file that starts
// threads with pthreads (the contract is ../shared/C-INPUT.md, the user's
// page docs/c.md) and builds the same concurrent system as the .cs
// language, through a .cs syntax tree (cs.Program) lowered by cs.Lower, so
// that the one engine analyses it.
//
// # Pipeline
//
// modernc.org/cc/v4 preprocesses the file with the host gcc's configuration
// (predefined macros and include paths), with fencer's analysis-only
// <stdatomic.h> and <assert.h> (include/) ahead of the system's, so that the
// C11 atomic operations and assert are calls by name; it parses and type
// checks the file (parse.go). The translation (translate.go, stmts.go,
// exprs.go, calls.go) builds the .cs tree: file-scope integers, arrays and
// struct fields become shared variables; main and each created thread
// become processes, every call of a function of the file is inlined; each
// node carries the byte offset of the construct in the original .c file, so
// every site, trace step and error names file.c:LINE:COL. InsertFences
// (patch.go) writes fences back into the C text.
//
// # Fence sites
//
// A fence site is the point right after a C statement that writes shared
// memory through a store buffer (a plain, volatile or relaxed/release
// store). The statements that the translation adds (reads into temporaries,
// the branches of a short-circuit, the steps that start and join threads)
// get empty spans, so that they are never sites; Parse marks the sites after
// C write statements (Site.AfterWrite) and only those.
package cfront
