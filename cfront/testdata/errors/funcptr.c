#include <pthread.h>
int x;
static void set(void) { x = 1; }
void *t(void *a) {
  void (*f)(void) = set;
  f();
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
