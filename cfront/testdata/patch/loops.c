#include <pthread.h>
volatile int x, y, n;
static void *t(void *arg) {
  (void)arg;
  if (n)
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++)
        x = i + j;
  while (n < 2) { n = n + 1; y = n; }
  return NULL;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, NULL, t, NULL);
  return 0;
}
