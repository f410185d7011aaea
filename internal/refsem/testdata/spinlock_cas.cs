// A cas spinlock: the locked instruction drains the buffer.
// refsem: sc safe
// refsem: tso safe
// refsem: pso safe
shared lock, c;
process P[i in 0..1] {
  local r;
  r = cas(lock, 0, 1);
  while (r == 0) { r = cas(lock, 0, 1); }
cs: c = c + 1;
  lock = 0;
}
mutex cs;
