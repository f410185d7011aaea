// A counter under a pthread mutex: lock is an acquire, unlock a release,
// so it is safe on every target.
//
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(count == 2);
  return 0;
}
