// Message passing with relaxed C11 atomics: the writer stores the data,
// then the flag; the reader spins on the flag, then reads the data. TSO
// keeps both pairs in order; PSO lets the stores pass each other (one
// store fence). AArch64, RISC-V and SPARC RMO also let the reads pass
// each other: a release store of the flag and an acquire load of it fix
// it on AArch64, barriers on the others.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int data, flag;

static void *writer(void *arg) {
  (void)arg;
  atomic_store_explicit(&data, 42, memory_order_relaxed);
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  while (atomic_load_explicit(&flag, memory_order_relaxed) == 0)
    ;
  assert(atomic_load_explicit(&data, memory_order_relaxed) == 42);
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
