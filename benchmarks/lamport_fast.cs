// Lamport's fast mutual exclusion algorithm (1987), two processes.
//
// Source: L. Lamport, "A fast mutual exclusion algorithm", ACM TOCS 5(1),
// 1987 (reference [17] of the SAS 2012 paper; a 1986 DEC SRC report).
// Process ids are 1..N and y = 0 means "free"; b[i] is a boolean:
//
//   start: b[i] := true;
//          x := i;
//          if y != 0 then begin b[i] := false;
//                               await y = 0;
//                               goto start end;
//          y := i;
//          if x != i then begin b[i] := false;
//                               for j := 1 to N do await not b[j];
//                               if y != i then begin await y = 0;
//                                                    goto start end end;
//          critical section;
//          y := 0;
//          b[i] := false;
//          noncritical section; goto start
//
// Processes are 0 and 1 here, with ids i + 1 (so that 0 still means free);
// b[] is indexed by process and holds 1 for true and 0 for false. The await
// over all j, the process itself included, is a compile-time `for`.
// Symmetric: written as a template.
//
// Expected fences: under TSO two (the paper does not say which): after
// `x = i + 1;` and after `y = i + 1;`, each followed by a read of the other
// variable. Under PSO also one after `y = 0;`, so that the release of `y`
// reaches memory before `b[i] = 0`.

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: every set of at most 2 sites other than {after `x = i + 1;`, after
// `y = i + 1;`} has a counterexample; that set is safe (finite state space,
// explored to the end).
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=3
// pso: derived with the explicit checker: every set of at most 3 sites other
// than {after `x = i + 1;`, after `y = i + 1;`, after `y = 0;`} has a
// counterexample, and that set is safe; fencer finds the same count.

shared x, y, b[2];

process P[i in 0..1] {
start:
    b[i] = 1;
    x = i + 1;
    if (y != 0) {
      b[i] = 0;
      while (y != 0) { }
      goto start;
    }
    y = i + 1;
    if (x != i + 1) {
      b[i] = 0;
      for (j in 0..1) {
        while (b[j] != 0) { }
      }
      if (y != i + 1) {
        while (y != 0) { }
        goto start;
      }
    }
cs: skip;
    y = 0;
    b[i] = 0;
    goto start;
}

mutex cs;
