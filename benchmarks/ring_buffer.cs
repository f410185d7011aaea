// A single-producer single-consumer ring buffer of two slots (issue 13).
//
// P puts the values 1 and 2 into buf[h % 2] when there is room (h - tail <
// 2), then publishes head; C takes items while tail < head, checks that the
// e-th item it takes is e, then publishes tail. Slot indices must be
// constants, so each access to buf[h % 2] is an if/else over the two slots.
// The loops are bounded (2 items, one per slot), so the explicit checker explores the
// whole state space under every model (`fencer explore`).
//
// - SC: safe (explicit checker, whole state space: 232 states).
// - TSO: safe with no fence (explicit checker, whole state space: 472
//   states), although
//   the program is NOT robust: P writes head and then reads tail, C writes
//   tail and then reads head, a store-buffering cycle. Those reorderings
//   only make each side see the other's progress late, which is harmless;
//   the abstract engine, not robustness, has to prove this one.
// - PSO: P's writes to buf and to head may reach memory out of order, so C
//   can see the new head and an old slot. One fence after the if/else that
//   writes the slot (a program point both writes pass) fixes it; the
//   explicit checker finds a bug with no fence (16 steps), with a fence after
//   buf[0] alone (36 steps) and after buf[1] alone (16 steps), and none with
//   the fence after the if/else (whole state space: 398 states). When fences
//   could only follow writes (before issue 12), it took two: one after each
//   slot write.
// - `fencer insert --robust` places more: it must also cut the
//   store-buffering cycle on head/tail (SC-equivalence, not the property).

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

shared buf[2], head, tail;

process P {
  local h, t, v;
  while (v < 2) {
    t = tail;
    if (h - t < 2) {
      v = v + 1;
      if (h % 2 == 0) {
        buf[0] = v;
      } else {
        buf[1] = v;
      }
      h = h + 1;
      head = h;
    }
  }
}

process C {
  local h, t, x, e;
  while (t < 2) {
    h = head;
    if (t < h) {
      if (t % 2 == 0) {
        x = buf[0];
      } else {
        x = buf[1];
      }
      e = e + 1;
      assert(x == e);
      t = t + 1;
      tail = t;
    }
  }
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
