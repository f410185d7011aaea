#include <pthread.h>
int x, n;
void *t(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t h[4];
  for (int i = 0; i < n; i++)
    pthread_create(&h[i], 0, t, 0);
  return 0;
}
