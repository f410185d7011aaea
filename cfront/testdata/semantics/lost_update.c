// Two threads increment a volatile counter: an update can be lost, even
// under SC.
// fencer: expect sc bug
#include <assert.h>
#include <pthread.h>
volatile int x;
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
