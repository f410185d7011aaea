const N = 2;
process P[i in N..N-1] { skip; } /* ERROR "empty template range 2..1" */
process Q[i in 0..64] { skip; } /* ERROR "template range 0..64 too large \(at most 64 instances\)" */
process R[i in 0..x] { skip; } /* ERROR "undefined: x" */
process S { skip; }
