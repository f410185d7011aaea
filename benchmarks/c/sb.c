// Store buffering (SB) in C11: each thread raises its own flag, then reads
// the other's. Under TSO both reads can return 0 (both stores still in the
// store buffers); a fence after the store forbids it.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int flag[2];

// fencer: mutex zero

static void *thread(void *arg) {
  int me = (int)(intptr_t)arg;
  atomic_store_explicit(&flag[me], 1, memory_order_relaxed);
  int r = atomic_load_explicit(&flag[1 - me], memory_order_relaxed);
  if (r == 0) {
  zero:;
  }
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, thread, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return 0;
}
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
