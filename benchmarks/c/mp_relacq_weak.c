// Message passing the C11 way: the writer publishes the (plain) data with
// a release store of the flag, the reader spins on an acquire load of it.
// Safe on every target by the mapping of the orders: a store fence before
// the flag under PSO, STLR and LDAR on AArch64, fence rw,w and fence r,rw
// on RISC-V, the membars of SPARC RMO.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int flag;

static void *writer(void *arg) {
  (void)arg;
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  while (atomic_load_explicit(&flag, memory_order_acquire) == 0)
    ;
  assert(data == 42);
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
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
