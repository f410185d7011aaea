// Store buffering with the stores written by a macro that holds its own
// ';' (#define SET(v) v = 1;): the fence goes after each call (it once
// had no fence site, and the result was unknown).
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2
#include <assert.h>
#include <pthread.h>
#define SET(v) v = 1;
volatile int x, y;
int r0, r1;
static void *t0(void *arg) {
  (void)arg;
  SET(x)
  r0 = y;
  return NULL;
}
static void *t1(void *arg) {
  (void)arg;
  SET(y)
  r1 = x;
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t0, NULL);
  pthread_create(&b, NULL, t1, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(r0 == 1 || r1 == 1);
  return 0;
}
