// SB as a template: one site serves both instances.
// refsem: sc safe
// refsem: tso fences=1
// refsem: pso fences=1
shared flag[2];
process P[i in 0..1] { local r; flag[i] = 1; r = flag[1 - i]; if (r == 0) { z: skip; } }
mutex z;
