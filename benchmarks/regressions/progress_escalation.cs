// Regression: found by the differential suite (generated program, seed 120).
//
// With a solver shared across runs, the same spurious counterexample came
// back after a refinement whose interpolant atoms were all known already.
// The engine then turned on precise posts, which is progress, but still gave
// up because no predicate was new ("refinement made no progress"): insert
// answered unknown where the explicit checker proves one fence is needed.
// Fixed in cegar.refinePredicates: a refinement progresses when it adds a
// predicate or switches on precise posts.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
shared x0, x1, x2, x3;
process P0 {
  local r0, r1;
  atomic { r0 = x3; x1 = r0 + 1; }
  r1 = swap(x2, 0);
  r1 = cas(x2, 1, 2);
  assume(r0 == 0);
end: skip;
}
process P1 {
  local r0, r1;
  x3 = 2;
  r0 = x1;
  x0 = r1;
  assume(r0 == 0);
end: skip;
}
forbidden P0@end, P1@end;
