// A loop inside an atomic function is refused, not dropped.
#include <pthread.h>
int x, n;
void __VERIFIER_atomic_fill(void) {
  while (n < 3)
    n = n + 1;
  x = n;
}
void *t(void *a) {
  __VERIFIER_atomic_fill();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return 0;
}
