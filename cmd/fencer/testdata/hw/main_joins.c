// Store buffering checked by main after it joins the two threads: main
// needs no CPU of its own (run --hw, issue 37).
#include <assert.h>
#include <pthread.h>

volatile int x, y;
int r0, r1;

static void *t0(void *arg) {
  (void)arg;
  x = 1;
  r0 = y;
  return NULL;
}

static void *t1(void *arg) {
  (void)arg;
  y = 1;
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
