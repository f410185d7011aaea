// Issue 25: a 4-process ring of flags after a fetch_add on a shared
// counter, from a generator of small programs (internal/progen, Ring).
// Every process sets its flag and reads its successor's; all four at cs
// is bad.
//
// Expected (issue 25, from an explicit search in Python with buffers capped
// at 8, 4.9 s): TSO needs exactly 1 fence. Not yet established here:
// package refsem does not finish even the SC exploration within 5,000,000
// states (2 minutes), so there is no independent count in this tree yet,
// and no expectation line: a candidate for benchmarks/regressions/ once
// fencer answers it and the count is checked. fencer on 2026-11-26 (loaded
// 2-core machine, default limits): SC correct, no fence, 14,819 abstract
// states, 0.4 s; TSO unknown at the 1,000,000-state limit (1,096,878
// states, 52 s, 768 MB); PSO unknown at a 60 s --timeout (929,036
// states, 780 MB).
const N = 4;
shared flag[N], x, turn, z, a[2];
process P[i in 0..N-1] {
  local r, k, s1, s2, s3;
  k = fetch_add(a[0], 1);
  if (k == 0) { a[0] = 1; } else { k = a[0]; }
  a[0] = 1;
  flag[i] = 1;
  r = flag[(i+1)%N];
  if (r == 0) {
cs: skip;
  }
}
forbidden P[0]@cs, P[1]@cs, P[2]@cs, P[3]@cs;
