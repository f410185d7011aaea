// A compare-and-swap that fails on the flag the writer released, with a
// relaxed failure order: the failed read synchronises with nothing, and
// the data read after it races with the write.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int flag;

void *writer(void *arg) {
  (void)arg;
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  int e = 0;
  if (!atomic_compare_exchange_strong_explicit(&flag, &e, 5, memory_order_acq_rel, memory_order_relaxed))
    assert(data == 42);
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  return 0;
}
