shared x, a[2];
const C = 1;
shared x; /* ERROR "x redeclared \(previous declaration at line 1\)" */
const C = 2; /* ERROR "C redeclared" */
process P {
  local r, r; /* ERROR "r redeclared" */
  r = zz; /* ERROR "undefined: zz" */
  r = a; /* ERROR "array a used without an index" */
  r = x[0]; /* ERROR "x is not an array" */
  r = C[0]; /* ERROR "C is a constant, not an array" */
  r = cas(r, 0, 1); /* ERROR "the first argument of cas must be a shared variable" */
  r = swap(a, 1); /* ERROR "array a used without an index" */
}
process P { skip; } /* ERROR "process P redeclared" */
