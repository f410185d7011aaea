// Thread ids passed as &ids[i], written by main before each create: SB.
// fencer: expect sc safe
// fencer: expect tso fences=1
#include <pthread.h>
int ids[2];
volatile int flag[2];
// fencer: forbidden t[0]@zero, t[1]@zero
static void *t(void *arg) {
  int me = *(int *)arg;
  flag[me] = 1;
  if (flag[1 - me] == 0) {
  zero:;
  }
  return NULL;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++) {
    ids[i] = i;
    pthread_create(&h[i], NULL, t, &ids[i]);
  }
  return 0;
}
