// A spinlock on an atomic_flag taken with acquire and released with
// release around a plain counter: no race.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_flag lock = ATOMIC_FLAG_INIT;
int counter;

void *worker(void *arg) {
  (void)arg;
  while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
    ;
  counter++;
  atomic_flag_clear_explicit(&lock, memory_order_release);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(counter == 2);
  return 0;
}
