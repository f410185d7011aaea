// A store written by a do { } while (0) macro: the fence goes after the
// macro's call.
// fencer: expect sc safe
// fencer: expect tso fences=1
#include <pthread.h>
#include <stdint.h>
volatile int flag[2];
#define RAISE(v) do { v = 1; } while (0)
// fencer: mutex zero
static void *t(void *arg) {
  int me = (int)(intptr_t)arg;
  RAISE(flag[me]);
  if (flag[1 - me] == 0) { zero:; }
  return NULL;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], NULL, t, (void *)(intptr_t)i);
  return 0;
}
