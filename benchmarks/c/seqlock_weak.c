// A seqlock with relaxed atomics only: the writer makes the sequence odd,
// writes two data words, makes it even again; a reader's try succeeds
// when it reads the same even sequence before and after the data, and
// must then have seen both words of one write. TSO keeps stores and loads
// in order; under PSO the data stores may pass the sequence stores (a
// store fence on each side). The weak targets also let the reader's loads
// pass each other.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=2
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int seq, d1, d2;

static void *writer(void *arg) {
  (void)arg;
  atomic_store_explicit(&seq, 1, memory_order_relaxed);
  atomic_store_explicit(&d1, 1, memory_order_relaxed);
  atomic_store_explicit(&d2, 1, memory_order_relaxed);
  atomic_store_explicit(&seq, 2, memory_order_relaxed);
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  int s1 = atomic_load_explicit(&seq, memory_order_relaxed);
  int a = atomic_load_explicit(&d1, memory_order_relaxed);
  int b = atomic_load_explicit(&d2, memory_order_relaxed);
  int s2 = atomic_load_explicit(&seq, memory_order_relaxed);
  if (s1 == s2 && s1 % 2 == 0)
    assert(a == b); // the try succeeded: one write's words
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}
// fencer: expect arm fences=4
// fencer: expect riscv fences=4
// fencer: expect rmo fences=4
