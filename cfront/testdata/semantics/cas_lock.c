// A test-and-set spinlock with a strong compare-exchange (expected reset
// after a failure) and a release unlock.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
atomic_bool locked;
volatile int owner_count;
// fencer: mutex cs
static void *t(void *arg) {
  (void)arg;
  for (;;) {
    bool expected = false;
    while (!atomic_compare_exchange_strong(&locked, &expected, true))
      expected = false;
  cs:
    atomic_store_explicit(&locked, false, memory_order_release);
  }
  return NULL;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], NULL, t, NULL);
  return 0;
}
