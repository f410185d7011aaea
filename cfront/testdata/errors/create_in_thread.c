#include <pthread.h>
int x;
void *u(void *a) { x = 1; return 0; }
void *t(void *a) {
  pthread_t h;
  pthread_create(&h, 0, u, 0);
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
