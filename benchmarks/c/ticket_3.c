// A ticket lock for N = 3 threads, with C11 atomics: a seq_cst
// fetch-and-add takes a ticket, the holder serves the next one with a
// release store. Same expectations as ../scale/ticket_3.cs.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int next_ticket, owner;

// fencer: mutex cs

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    int t = atomic_fetch_add(&next_ticket, 1);
    while (atomic_load_explicit(&owner, memory_order_acquire) != t)
      ;
  cs:;
    atomic_store_explicit(&owner, t + 1, memory_order_release);
  }
  return NULL;
}

int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  return 0;
}
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
