// Load buffering (LB): each thread reads one variable, then writes the
// other. Reading 1 in both would need a load to be reordered after a later
// store, which neither TSO nor PSO does: safe without fences.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

// fencer: mutex seen

static void *p0(void *arg) {
  (void)arg;
  int r = atomic_load_explicit(&x, memory_order_relaxed);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  if (r == 1) {
  seen:;
  }
  return NULL;
}

static void *p1(void *arg) {
  (void)arg;
  int r = atomic_load_explicit(&y, memory_order_relaxed);
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  if (r == 1) {
  seen:;
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, p0, NULL);
  pthread_create(&b, NULL, p1, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
