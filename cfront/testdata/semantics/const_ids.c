// Thread ids from a const array (&ids[i]), a const bound; the thread
// returns its argument.
// fencer: expect sc safe
// fencer: expect tso fences=1
#include <pthread.h>
#include <stdint.h>
const int N = 2;
static const int ids[] = {0, 1};
volatile int flag[2];
// fencer: mutex zero
static void *t(void *arg) {
  (void)arg;
  int me = *(int *)arg;
  flag[me] = 1;
  if (flag[1 - me] == 0) { zero:; }
  return arg;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < N; i++)
    pthread_create(&h[i], NULL, t, (void *)&ids[i]);
  return 0;
}
