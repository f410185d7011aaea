// Test n6 of Owens, Sarkar, Sewell, "A better x86 memory model: x86-TSO"
// (TPHOLs 2009), also in Sewell et al., CACM 2010: allowed in x86-TSO
// (observed on Intel hardware; it showed that x86-CC was unsound). The
// outcome is also derived below from the x86-TSO machine. Intra-processor
// forwarding: P0 reads its own x = 1 from its buffer, and that write reaches
// memory after P1's x = 2.
//
//   P0: x = 1; r1 = x; r2 = y;     P1: y = 2; x = 2;
//   outcome: r1 == 1 && r2 == 0 && final x == 1
//
// Final memory is observed by Obs, which waits until both writers are done
// and then reads x. A writer announces "done" with a locked exchange on its
// own flag (`swap`, not a fence site): it waits for the writer's buffers to
// drain and comes after all of its writes, so when Obs sees both flags the
// values of x and y in memory are final. This does not change the outcome
// set: any run can drain all buffers before the swaps, and the flags are
// read by no one else.
//
// SC: forbidden: r2 == 0 puts P0's read of y before y = 2, so
//     x = 1 < (read y) < y = 2 < x = 2: final x == 2.
// TSO: allowed (the published outcome; x86-TSO run: P0 buffers x = 1,
//     reads 1 from its buffer and y == 0 from memory; P1 writes y = 2 and
//     x = 2 to memory; then P0's x = 1 drains: final x == 1).
//     Fences: a fence after `x = 1;` puts x = 1 in memory before P0 reads
//     y == 0, hence before y = 2 and (TSO keeps P1's writes in order)
//     before x = 2: final x == 2, forbidden. Minimum 1. (P1's writes are
//     already ordered under TSO: a fence after `y = 2;` alone does nothing.)
// PSO: allowed (PSO allows all TSO behaviours; SPARC V9, Appendix D).
//     With the fence after `x = 1;` only, P1's x = 2 may reach memory before
//     its y = 2 (stores to different locations, PSO): x = 2, then P0's
//     x = 1 (fence), r1 == 1, r2 == 0, then y = 2: final x == 1, allowed.
//     With a fence after `y = 2;` only, the TSO run above remains. Both
//     fences give x = 1 < read y < y = 2 < x = 2: forbidden. Minimum 2.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2

shared x, y, done0, done1;

process P0 {
  local r1, r2, t;
  x = 1;
  r1 = x;
  r2 = y;
  t = swap(done0, 1);
  assume(r1 == 1 && r2 == 0);
a0: skip;
}

process P1 {
  local t;
  y = 2;
  x = 2;
  t = swap(done1, 1);
}

process Obs {
  local fx;
  assume(done0 == 1 && done1 == 1);
  fx = x;
  assume(fx == 1);
ob: skip;
}

forbidden P0@a0, Obs@ob;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
