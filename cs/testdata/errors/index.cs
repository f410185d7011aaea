shared a[2], t;
process P[i in 0..1] {
  local r, l[3];
  r = a[t]; /* ERROR "non-constant array index a" */
  r = a[i + 1]; /* ERROR "index 2 out of range for a\[2\]" */
  a[-1] = 0; /* ERROR "index -1 out of range" */
  l[r] = 1; /* ERROR "non-constant array index l" */
  l[3] = 1; /* ERROR "index 3 out of range for l\[3\]" */
  r = l[i] + a[l[0]]; /* ERROR "non-constant array index" */
}
