// Values of atomic assignments and RMWs used as values: r = fetch_add(&x, r)
// (the target is an operand), s = (x = 5), u = x++.
// fencer: expect sc safe
// fencer: expect tso safe
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
atomic_int x;
static void *t(void *a) {
  int r = 1;
  r = atomic_fetch_add(&x, r);
  int s;
  s = (x = 5);
  assert(s == 5);
  int u = x++;
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); assert(x == 6); return 0; }
