// A ticket lock: take a ticket with an atomic fetch-and-add, wait until it
// is served. Same algorithm and expectations as ../ticket_lock.cs, with
// GCC's __sync builtins.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <pthread.h>

volatile int next_ticket;
volatile int owner;

// fencer: mutex cs

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    int t = __sync_fetch_and_add(&next_ticket, 1);
    while (owner != t)
      ;
  cs:
    owner = owner + 1;
  }
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return 0;
}
// fencer: expect arm safe
// fencer: expect riscv safe
