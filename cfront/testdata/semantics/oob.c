// An index out of bounds is a bad state, even under SC.
// fencer: expect sc bug
#include <pthread.h>
volatile int a[2];
static void *t(void *arg) {
  for (int i = 0; i < 3; i++) {
    int k = i;
    a[k] = 1;
  }
  return NULL;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, NULL, t, NULL);
  pthread_join(h, NULL);
  return 0;
}
