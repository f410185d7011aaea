// Dekker's algorithm, simplified (no turn): raise your flag, back off while
// the other's is up. Same algorithm and expectations as
// ../dekker_simple.cs. GCC style: volatile flags.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
#include <pthread.h>
#include <stdint.h>

volatile int flag[2];

// fencer: mutex cs

static void *worker(void *arg) {
  int me = (int)(intptr_t)arg;
retry:
  flag[me] = 1;
  if (flag[1 - me] != 0) {
    flag[me] = 0;
    goto retry;
  }
cs:
  flag[me] = 0;
  goto retry;
  return NULL;
}

int main(void) {
  pthread_t t0, t1;
  pthread_create(&t0, NULL, worker, (void *)0);
  pthread_create(&t1, NULL, worker, (void *)1);
  pthread_join(t0, NULL);
  pthread_join(t1, NULL);
  return 0;
}
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
