// Message passing (MP): the writer stores the data, then raises a flag;
// the reader who sees the flag must see the data. TSO keeps stores in
// order; PSO does not, and needs a (store) fence between the two stores.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1
#include <assert.h>
#include <pthread.h>

volatile int data, ready;

static void *writer(void *arg) {
  (void)arg;
  data = 1;
  ready = 1;
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  int r1 = ready;
  int r2 = data;
  assert(r1 == 0 || r2 == 1);
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
