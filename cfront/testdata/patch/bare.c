#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
volatile int x, y, z;
static void *t(void *arg) {
  int me = (int)(intptr_t)arg;
  if (me == 0)
    x = 1;
  else
    y = 1;
  while (z == 0)
    z = 1;
  for (int i = 0; i < 2; i++)
    x = i;
  do
    y = 2;
  while (x == 0);
  return NULL;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], NULL, t, (void *)(intptr_t)i);
  return 0;
}
