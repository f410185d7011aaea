// Peterson's filter lock for N = 3 threads: N-1 levels, a victim per
// level. Same algorithm and expectations as ../scale/filter_3.cs, with
// C11 relaxed atomics.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef N
#define N 3
#endif

atomic_int level[N], victim[N];

// fencer: mutex cs

static int others_at_or_above(int i, int l) {
  int c = 0;
  for (int k = 0; k < N; k++)
    if (k != i)
      if (atomic_load_explicit(&level[k], memory_order_relaxed) >= l)
        c = 1;
  return c;
}

static void *worker(void *arg) {
  int i = (int)(intptr_t)arg;
  for (;;) {
    for (int l = 1; l < N; l++) {
      atomic_store_explicit(&level[i], l, memory_order_relaxed);
      atomic_store_explicit(&victim[l], i, memory_order_relaxed);
      int c = 1;
      while (c == 1) {
        c = others_at_or_above(i, l);
        if (atomic_load_explicit(&victim[l], memory_order_relaxed) != i)
          c = 0;
      }
    }
  cs:;
    atomic_store_explicit(&level[i], 0, memory_order_relaxed);
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
