// Lamport's bakery algorithm for two threads: take a ticket one higher
// than the other's, wait while the other is choosing or holds a smaller
// ticket (ties broken by thread id). Same algorithm and expectations as
// ../bakery.cs.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

volatile bool choosing[2];
volatile int number[2];

// fencer: mutex cs

static bool before(int n, int t, int other, int me) {
  return n < t || (n == t && other < me);
}

static void lock(int me) {
  int other = 1 - me;
  choosing[me] = true;
  int t = number[other] + 1;
  number[me] = t;
  choosing[me] = false;
  while (choosing[other])
    ;
  int n = number[other];
  while (n != 0 && before(n, t, other, me))
    n = number[other];
}

static void *worker(void *arg) {
  int me = (int)(intptr_t)arg;
  while (true) {
    lock(me);
  cs:;
    number[me] = 0;
  }
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return 0;
}
