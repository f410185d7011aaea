// A switch with fall-through, default and break, a do/while and continue.
// fencer: expect sc safe
// fencer: expect tso safe
#include <assert.h>
#include <pthread.h>
volatile int x;
static void *t(void *arg) {
  int s = 0, n = 0;
  do {
    switch (s) {
    case 0:
      n = n + 1;
    case 1:
      s = 2;
      break;
    default:
      s = 3;
    }
    if (s == 2) {
      s = 3;
      continue;
    }
  } while (s != 3);
  x = n;
  assert(n == 1);
  return NULL;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, NULL, t, NULL);
  pthread_join(h, NULL);
  assert(x == 1);
  return 0;
}
