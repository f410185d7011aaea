// Peterson's mutual exclusion for two threads, as a C programmer writes
// it: volatile flags, a lock and an unlock function, threads started in a
// loop. Same algorithm and expectations as ../peterson.cs.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2
#include <pthread.h>
#include <stdint.h>

volatile int flag[2];
volatile int turn;

// fencer: mutex cs

static void lock(int me) {
  int other = 1 - me;
  flag[me] = 1;
  turn = me;
  while (flag[other] == 1 && turn == me)
    ;
}

static void unlock(int me) { flag[me] = 0; }

static void *worker(void *arg) {
  int me = (int)(intptr_t)arg;
  for (;;) {
    lock(me);
  cs:;
    unlock(me);
  }
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return 0;
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
