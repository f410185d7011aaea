// Issue 38: three copies of a process with a loop bounded by a counter
// that writes x and reads y, a write of y and of the process's own flag, a
// read of its neighbour's flag, and an increment of a shared counter that
// nothing tests. No run keeps more than 5 writes in a buffer, so the proof
// is explored under k=5, the exact semantics (domains.Info.BufferBound),
// instead of climbing from k=1 with tails; c is forgotten (domains/forget.go).
//
// Checked with the explicit checker (fencer explore): without a fence the
// forbidden state is reachable under TSO (hence PSO); with the fence after
// flag[i] = 1 it is not, under TSO (636,278 states) nor PSO (1,783,361
// states). refsem finds the same TSO bug (2,201,683 states).
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
const N = 3;
shared flag[N], x, y, c;
process P[i in 0..N-1] {
  local r, j, t;
  while (j < 3) {
    x = j; t = y;
    j = j + 1;
  }
  y = i;
  flag[i] = 1;
  r = flag[(i+1)%N];
  if (r == 0) {
inc: c = c + 1;
  }
}
forbidden P[0]@inc, P[1]@inc, P[2]@inc;
