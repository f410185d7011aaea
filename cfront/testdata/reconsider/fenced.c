#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
volatile int flag[2], turn;
// fencer: mutex cs
static void *w(void *arg) {
  int me = (int)(intptr_t)arg;
  for (;;) {
    flag[me] = 1;
    __sync_synchronize();
    turn = me;
    atomic_thread_fence(memory_order_seq_cst);
    while (flag[1 - me] == 1 && turn == me)
      ;
  cs:;
    flag[me] = 0;
    asm volatile("mfence" ::: "memory");
  }
  return NULL;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, w, (void *)(intptr_t)i);
  return 0;
}
