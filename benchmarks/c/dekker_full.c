// Dekker's algorithm as Dijkstra published it (EWD123): c[i] = 0 asks to
// enter, turn breaks ties. Same algorithm and expectations as
// ../dekker_full.cs, written with C11 relaxed atomics (a relaxed store is
// a plain buffered store on x86).
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int c[2] = {1, 1};
atomic_int turn;

// fencer: mutex cs

#define LOAD(v) atomic_load_explicit(&(v), memory_order_relaxed)
#define STORE(v, x) atomic_store_explicit(&(v), (x), memory_order_relaxed)

static void *worker(void *arg) {
  int i = (int)(intptr_t)arg;
  int j = 1 - i;
A:
  STORE(c[i], 0);
L:
  if (LOAD(c[j]) == 0) {
    if (LOAD(turn) == i)
      goto L;
    STORE(c[i], 1);
  B:
    if (LOAD(turn) == j)
      goto B;
    goto A;
  }
cs:
  STORE(turn, j);
  STORE(c[i], 1);
  goto A;
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
