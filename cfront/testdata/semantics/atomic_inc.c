// The same with an _Atomic counter: x++ is a locked increment.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
static void *t(void *arg) {
  (void)arg;
  x++;
  return NULL;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], NULL, t, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], NULL);
  assert(x == 2);
  return 0;
}
