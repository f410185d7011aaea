// The Linux x86 ticket spinlock, two processes, unbounded tickets.
//
// Source: the Linux kernel's x86 spinlock (arch/x86/include/asm/spinlock.h):
// lock takes a ticket with a locked fetch-and-add (`lock xadd`) on the
// next-ticket counter and spins until the owner counter reaches it; unlock
// is a plain, unlocked increment of the owner counter. Whether that plain
// store is enough on x86 was the subject of the LKML thread starting at
// https://lkml.org/lkml/1999/11/20/76 (footnote 2 of the SAS 2012 paper).
//
//   lock:   t := fetch_add(next, 1); while owner != t do skip
//   unlock: owner := owner + 1
//
// Both counters grow without bound. Symmetric: written as a template.
//
// Expected fences: none under TSO. The only plain write is the unlock; the
// fetch_add of the next lock empties the store buffer, and a late unlock
// only keeps the other process waiting longer.

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: with no fence, no counterexample within 3,000,000 states (the state
// space is infinite: counters are unbounded, so this is no proof).
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
// pso: verified by fencer (the unlock is the only plain write of a process,
// so PSO behaves as TSO here)

shared next, owner;

process P[i in 0..1] {
  local t;
  while (true) {
    t = fetch_add(next, 1);
    while (owner != t) { }
cs: skip;
    owner = owner + 1;
  }
}

mutex cs;
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
