const A = B + 1; /* ERROR "constant B used before its declaration \(line 2\)" */
const B = 2;
const D = D; /* ERROR "constant D is defined in terms of itself" */
shared s;
const E = s; /* ERROR "the value of a const must be constant" */
const F = 9223372036854775807 + 1; /* ERROR "constant overflow" */
shared arr[0]; /* ERROR "array size 0 must be at least 1" */
shared big[5000]; /* ERROR "array size 5000 too large \(at most 4096\)" */
shared n[s]; /* ERROR "array size must be constant" */
process P { skip; }
