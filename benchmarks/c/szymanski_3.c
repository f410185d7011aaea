// Szymanski's mutual exclusion (1988) for N = 3 threads. Same algorithm
// and expectations as ../scale/szymanski_3.cs.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2
#include <pthread.h>
#include <stdint.h>

#ifndef N
#define N 3
#endif

volatile int flag[N];

// fencer: mutex cs

static void *worker(void *arg) {
  int i = (int)(intptr_t)arg;
  int c;
  for (;;) {
    flag[i] = 1;
    for (int j = 0; j < N; j++)
      if (j != i)
        while (flag[j] >= 3)
          ;
    flag[i] = 3;
    c = 0;
    for (int j = 0; j < N; j++)
      if (j != i)
        if (flag[j] == 1)
          c = 1;
    if (c == 1) {
      flag[i] = 2;
      while (c != 4)
        for (int j = 0; j < N; j++)
          if (j != i)
            if (flag[j] == 4)
              c = 4;
    }
    flag[i] = 4;
    for (int j = 0; j < i; j++)
      while (flag[j] >= 2)
        ;
  cs:;
    for (int j = i + 1; j < N; j++) {
      c = flag[j];
      while (c == 2 || c == 3)
        c = flag[j];
    }
    flag[i] = 0;
  }
  return NULL;
}

int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  return 0;
}
