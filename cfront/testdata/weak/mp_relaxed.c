// Message passing with relaxed atomics: the reader that sees the flag
// may miss the data on every weak target. On AArch64 the cheapest fix
// raises the flag's store to release and its load to acquire; elsewhere
// it is a barrier on each side.
//
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int data, flag;

void *writer(void *arg) {
  (void)arg;
  atomic_store_explicit(&data, 1, memory_order_relaxed);
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  int r1 = atomic_load_explicit(&flag, memory_order_relaxed);
  int r2 = atomic_load_explicit(&data, memory_order_relaxed);
  assert(r1 == 0 || r2 == 1);
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
