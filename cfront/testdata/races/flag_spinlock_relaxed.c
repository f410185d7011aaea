// The same spinlock released with a relaxed clear: the next owner's
// increment does not happen after the last one's, a race.
#include <pthread.h>
#include <stdatomic.h>

atomic_flag lock = ATOMIC_FLAG_INIT;
int counter;

void *worker(void *arg) {
  (void)arg;
  while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
    ;
  counter++;
  atomic_flag_clear_explicit(&lock, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  return 0;
}
