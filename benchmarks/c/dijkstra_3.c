// Dijkstra's mutual exclusion (1965) for N = 3 threads. Same algorithm
// and expectations as ../scale/dijkstra_3.cs.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
#include <pthread.h>
#include <stdint.h>

#ifndef N
#define N 3
#endif

volatile int flag[N];
volatile int turn;

// fencer: mutex cs

static void *worker(void *arg) {
  int i = (int)(intptr_t)arg;
L:
  flag[i] = 1;
  while (turn != i) {
    int t = turn;
    for (int j = 0; j < N; j++)
      if (j != i && t == j)
        if (flag[j] == 0)
          turn = i;
  }
  flag[i] = 2;
  for (int j = 0; j < N; j++)
    if (j != i)
      if (flag[j] == 2)
        goto L;
cs:;
  flag[i] = 0;
  goto L;
}

int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  return 0;
}
