process P {
L: skip;
L: skip; /* ERROR "label L already defined at line 2" */
  goto M; /* ERROR "label M not defined" */
  for (j in 0..1) {
K:  skip; /* ERROR "label K inside a for body" */
  }
}
process Q { L: skip; goto L; } // labels belong to their process
