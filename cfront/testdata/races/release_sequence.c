// A relaxed fetch_add between the release store and the acquire load
// continues the release sequence: no race.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int ready;

void *writer(void *arg) {
  (void)arg;
  data = 42;
  atomic_store_explicit(&ready, 1, memory_order_release);
  return NULL;
}

void *bumper(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&ready, memory_order_relaxed) == 1)
    atomic_fetch_add_explicit(&ready, 1, memory_order_relaxed);
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  if (atomic_load_explicit(&ready, memory_order_acquire) == 2)
    assert(data == 42);
  return NULL;
}

int main(void) {
  pthread_t w, b, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&b, NULL, bumper, NULL);
  pthread_create(&r, NULL, reader, NULL);
  return 0;
}
