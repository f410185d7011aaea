#include <pthread.h>
volatile int x, y;
void *t(void *a) {
  x = x | y;
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
