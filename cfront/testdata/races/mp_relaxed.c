// Plain data published by a relaxed store of an atomic flag: the read
// after the flag is not ordered after the write, a race.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int ready;

void *writer(void *arg) {
  (void)arg;
  data = 42;
  atomic_store_explicit(&ready, 1, memory_order_relaxed);
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&ready, memory_order_relaxed) == 1)
    assert(data == 42);
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  return 0;
}
