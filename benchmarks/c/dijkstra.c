// Dijkstra's mutual exclusion algorithm (1965) for two threads. Same
// algorithm and expectations as ../dijkstra.cs.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
#include <pthread.h>
#include <stdint.h>

enum { IDLE, WANT, IN_CS };

volatile int flag[2];
volatile int turn;

// fencer: mutex cs

static void *worker(void *arg) {
  int i = (int)(intptr_t)arg;
L:
  flag[i] = WANT;
  while (turn != i) {
    if (flag[1 - i] == IDLE)
      turn = i;
  }
  flag[i] = IN_CS;
  if (flag[1 - i] == IN_CS)
    goto L;
cs:
  flag[i] = IDLE;
  goto L;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return 0;
}
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
