// 2+2W with a full fence between the writes: forbidden (the three models
// are multi-copy atomic).
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// herd7: arm 2+2W+dmbs+obs.litmus Never
// herd7: arm 2+2W+dmbs.litmus Never
// herd7: riscv RV-2+2W+fence.rw.rws.litmus Never
shared x, y, done0, done1;
process P0 { x = 2; fence; y = 1; release done0 = 1; }
process P1 { y = 2; fence; x = 1; release done1 = 1; }
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
