#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#define N 2
atomic_int flag[N];
volatile int turn;
static int other(int me) { return 1 - me; }
static void *worker(void *arg) {
  int me = (int)(intptr_t)arg;
  atomic_store_explicit(&flag[me], 1,
                        memory_order_release);
  turn = other(me);
  while (atomic_load(&flag[other(me)]) && turn == other(me))
    ;
  atomic_store(&flag[me], 0);
  return NULL;
}
int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  assert(turn == 0 || turn == 1);
  return 0;
}
