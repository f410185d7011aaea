// Independent reads of independent writes (IRIW): two writers, two readers
// reading the two variables in opposite orders. The readers disagreeing on
// the order of the writes needs stores that reach processors at different
// times; TSO and PSO have one memory, so it never happens: safe.
//
// The final state is checked by main after the joins.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
volatile int r1, r2, r3, r4;

static void *wx(void *arg) {
  (void)arg;
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  return NULL;
}

static void *wy(void *arg) {
  (void)arg;
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  return NULL;
}

static void *rxy(void *arg) {
  (void)arg;
  r1 = atomic_load_explicit(&x, memory_order_relaxed);
  r2 = atomic_load_explicit(&y, memory_order_relaxed);
  return NULL;
}

static void *ryx(void *arg) {
  (void)arg;
  r3 = atomic_load_explicit(&y, memory_order_relaxed);
  r4 = atomic_load_explicit(&x, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t t[4];
  pthread_create(&t[0], NULL, wx, NULL);
  pthread_create(&t[1], NULL, wy, NULL);
  pthread_create(&t[2], NULL, rxy, NULL);
  pthread_create(&t[3], NULL, ryx, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  assert(!(r1 == 1 && r2 == 0 && r3 == 1 && r4 == 0));
  return 0;
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
