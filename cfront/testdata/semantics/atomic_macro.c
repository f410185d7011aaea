// A macro's do { ... } while (0) inside an atomic section is its body,
// run once in the atomic step (it was once an empty step, and main saw
// x == 0): after the joins main sees x == 2 and y == 2.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#define BUMP(v) do { v = v + 1; } while (0)
int x, y;
static void *t(void *arg) {
  (void)arg;
  __VERIFIER_atomic_begin();
  BUMP(x);
  BUMP(y);
  __VERIFIER_atomic_end();
  return NULL;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], NULL, t, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], NULL);
  assert(x == 2 && y == 2);
  return 0;
}
