// Message passing with volatile (not atomic) variables, the reader
// reading the data in the body of an if on the flag: on the
// weak targets only barriers help (no order can be raised on a variable
// that is not _Atomic); the reader's goes before the body's first
// statement.
//
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
#include <assert.h>
#include <pthread.h>

volatile int data, ready, seen = -1;

void *writer(void *arg) {
  (void)arg;
  data = 42;
  ready = 1;
  return NULL;
}

void *reader(void *arg) {
  (void)arg;
  if (ready == 1)
    seen = data;
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  assert(seen == -1 || seen == 42);
  return 0;
}
