// Message passing through a flag the reader spins on, relaxed: the data
// read after the loop may see the old value on the weak targets.
//
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int flag;

void *writer(void *arg) {
  (void)arg;
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  while (atomic_load_explicit(&flag, memory_order_relaxed) == 0)
    ;
  assert(data == 42);
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
