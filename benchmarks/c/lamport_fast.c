// Lamport's fast mutual exclusion algorithm (1987) for two threads, with
// GCC's __atomic builtins at relaxed order (plain x86 loads and stores).
// Same algorithm and expectations as ../lamport_fast.cs.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=3
#include <pthread.h>
#include <stdint.h>

#define N 2

int x, y, b[N];

// fencer: mutex cs

#define LD(v) __atomic_load_n(&(v), __ATOMIC_RELAXED)
#define ST(v, e) __atomic_store_n(&(v), (e), __ATOMIC_RELAXED)

static void wait_zero(void) {
  while (LD(y) != 0)
    ;
}

static void *worker(void *arg) {
  int i = (int)(intptr_t)arg;
start:
  ST(b[i], 1);
  ST(x, i + 1);
  if (LD(y) != 0) {
    ST(b[i], 0);
    wait_zero();
    goto start;
  }
  ST(y, i + 1);
  if (LD(x) != i + 1) {
    ST(b[i], 0);
    for (int j = 0; j < N; j++)
      while (LD(b[j]) != 0)
        ;
    if (LD(y) != i + 1) {
      wait_zero();
      goto start;
    }
  }
cs:
  ST(y, 0);
  ST(b[i], 0);
  goto start;
}

int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  return 0;
}
