// C11 threads: thrd_create and thrd_join, SB with a seq_cst store.
// fencer: expect sc safe
// fencer: expect tso safe
#include <stdatomic.h>
#include <threads.h>
atomic_int flag[2];
// fencer: mutex zero
static int t(void *arg) {
  int me = (int)(long)arg;
  atomic_store(&flag[me], 1);
  if (atomic_load(&flag[1 - me]) == 0) {
  zero:;
  }
  return 0;
}
int main(void) {
  thrd_t h[2];
  for (long i = 0; i < 2; i++)
    thrd_create(&h[i], t, (void *)i);
  for (int i = 0; i < 2; i++)
    thrd_join(h[i], NULL);
  return 0;
}
