shared a[4096];
process P {
  for (i in 0..4095) for (j in 0..4095) a[j] = i; /* ERROR "program too large" */
}
