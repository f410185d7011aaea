// Relaxed accesses of the flag with a release fence before the store and
// an acquire fence after the load: the fences synchronise, no race.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int ready;

void *writer(void *arg) {
  (void)arg;
  data = 42;
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&ready, 1, memory_order_relaxed);
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  int r = atomic_load_explicit(&ready, memory_order_relaxed);
  atomic_thread_fence(memory_order_acquire);
  if (r == 1)
    assert(data == 42);
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  return 0;
}
