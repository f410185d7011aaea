const C = 1;
shared x;
process P[i in 0..1] {
  local r;
  C = 2; /* ERROR "cannot assign to constant C" */
  i = 2; /* ERROR "cannot assign to template index i" */
  for (j in 0..1) j = 1; /* ERROR "cannot assign to for index j" */
  x = x / x; /* ERROR "division by non-constant" */
  r = r % 0; /* ERROR "division by zero" */
  x = 1 / (C - 1); /* ERROR "division by zero" */
  for (j in 0..r) skip; /* ERROR "a for bound must be constant" */
}
