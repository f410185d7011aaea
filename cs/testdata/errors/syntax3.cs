shared x;
process P {
  x = x & 1; /* ERROR "unexpected '&' \(did you mean '&&'\?\)" */
  x = 1 . 2; /* ERROR "unexpected '\.'" */
  x == 1; /* ERROR "expected '=', found '=='" */
  while (*) x = 1 /* ERROR "expected ';'" */ }
/* ERROR "comment not terminated" */ /* a comment that never ends
