shared x;
process P {
  local r;
  atomic {
    while (x) { } /* ERROR "while loop not allowed inside atomic" */
    for (j in 0..1) skip; /* ERROR "for loop not allowed inside atomic" */
    goto L; /* ERROR "goto not allowed inside atomic" */
    M: skip; /* ERROR "label not allowed inside atomic" */
    fence; /* ERROR "fence not allowed inside atomic" */
    local q; /* ERROR "declaration not allowed inside atomic" */
    atomic { } /* ERROR "nested atomic not allowed inside atomic" */
    r = cas(x, 0, 1); /* ERROR "cas not allowed inside atomic" */
  }
L: skip;
}
