// Burns' mutual exclusion algorithm (Burns and Lynch, 1980) for two
// threads, with two different thread functions. Same algorithm and
// expectations as ../burns.cs.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2
#include <pthread.h>

volatile int flag[2];

// fencer: mutex cs

static void *p0(void *arg) {
  (void)arg;
  for (;;) {
    flag[0] = 0;
    flag[0] = 1;
    while (flag[1] == 1)
      ;
  cs:
    flag[0] = 0;
  }
}

static void *p1(void *arg) {
  (void)arg;
  for (;;) {
    flag[1] = 0;
    if (flag[0] == 1)
      continue;
    flag[1] = 1;
    if (flag[0] == 1)
      continue;
  cs:
    flag[1] = 0;
  }
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, p0, NULL);
  pthread_create(&b, NULL, p1, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
