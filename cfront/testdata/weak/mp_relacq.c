// Message passing with a release store of the flag and an acquire load
// of it: safe on every target by the mapping (STLR and LDAR; fence rw,w
// before the store and fence r,rw after the load; the membars of RMO).
//
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int data, flag;

void *writer(void *arg) {
  (void)arg;
  atomic_store_explicit(&data, 1, memory_order_relaxed);
  atomic_store_explicit(&flag, 1, memory_order_release);
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  int r1 = atomic_load_explicit(&flag, memory_order_acquire);
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
