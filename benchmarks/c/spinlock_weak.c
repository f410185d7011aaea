// A spin lock taken with a relaxed compare-and-swap and released with a
// relaxed store, around an increment: under TSO the locked CAS and the
// ordered stores keep the increment inside; under PSO the counter's store
// may pass the unlock (a store fence before it). On the weak targets the
// critical section's accesses may leave it on either side.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
volatile int count;

static void *worker(void *arg) {
  (void)arg;
  int expected = 0;
  while (!atomic_compare_exchange_strong_explicit(&lock, &expected, 1, memory_order_relaxed, memory_order_relaxed))
    expected = 0;
  count = count + 1;
  atomic_store_explicit(&lock, 0, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(count == 2);
  return 0;
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
