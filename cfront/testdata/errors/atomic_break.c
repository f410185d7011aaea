// A break in do { ... } while (0) inside an atomic section: an atomic
// step has no jumps, so it is refused (it was once an empty step).
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x, y;
void *t(void *a) {
  __VERIFIER_atomic_begin();
  do {
    x = 1;
    if (y)
      break;
    y = 1;
  } while (0);
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return 0;
}
