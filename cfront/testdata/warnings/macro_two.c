// A macro that expands into two statements, the first a shared write: no
// fence can go between them.
#include <pthread.h>
volatile int x, y;
#define TWO(a, b) a = 1; b = 1;
static void *t(void *arg) {
  (void)arg;
  TWO(x, y)
  return NULL;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, NULL, t, NULL);
  return 0;
}
