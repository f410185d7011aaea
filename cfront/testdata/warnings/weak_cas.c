#include <pthread.h>
#include <stdatomic.h>
atomic_int lock;
void *t(void *a) {
  int expected = 0;
  while (!atomic_compare_exchange_weak(&lock, &expected, 1))
    expected = 0;
  atomic_store(&lock, 0);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, t, 0);
  return 0;
}
