// SV-COMP style: a nondeterministic value, an assumption, an atomic
// section and an atomic function.
// fencer: expect sc safe
// fencer: expect tso safe
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
volatile int x, y;
static void __VERIFIER_atomic_incr(void) { y = y + 1; }
static void *t(void *arg) {
  (void)arg;
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v > 0 && v < 3);
  __VERIFIER_atomic_begin();
  x = x + v;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_incr();
  return NULL;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], NULL, t, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], NULL);
  assert(y == 2 && x >= 2 && x <= 4);
  return 0;
}
