// Burns' mutual exclusion for N = 3 threads: lower the flag, give way to
// every lower thread whose flag is up, raise it, check again; then wait
// for the higher threads. Same algorithm and expectations as
// ../scale/burns_3.cs.
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

// fencer: mutex cs

static void *worker(void *arg) {
  int i = (int)(intptr_t)arg;
L:
  flag[i] = 0;
  for (int j = 0; j < i; j++)
    if (flag[j] == 1)
      goto L;
  flag[i] = 1;
  for (int j = 0; j < i; j++)
    if (flag[j] == 1)
      goto L;
M:;
  for (int j = i + 1; j < N; j++)
    if (flag[j] == 1)
      goto M;
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
