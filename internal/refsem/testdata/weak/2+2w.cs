// 2+2W: each process writes x and y in opposite orders; the observer,
// whose acquire reads of the done flags (written by release) order its
// reads of x and y after both processes' writes, sees the final values.
// Allowed when the writes of a process reorder.
// weak: sc safe
// weak: tso safe
// weak: arm bad fences=2
// weak: riscv bad fences=2
// weak: rmo bad fences=2
// herd7: arm 2+2W+obs.litmus Sometimes
// herd7: arm 2+2W.litmus Sometimes
shared x, y, done0, done1;
process P0 { x = 2; y = 1; release done0 = 1; }
process P1 { y = 2; x = 1; release done1 = 1; }
process Obs {
  local d0, d1, fx, fy;
  acquire d0 = done0;
  acquire d1 = done1;
  assume(d0 == 1 && d1 == 1);
  fx = x;
  fy = y;
  if (fx == 2 && fy == 2) { ob: skip; }
}
forbidden Obs@ob;
