// Store buffering with seq_cst atomics (atomic_store, atomic_load and the
// plain syntax on _Atomic variables): both loads cannot miss both stores.
// Safe on every target by the mapping: a locked store on x86 and SPARC,
// STLR then LDAR on AArch64 (an acquire load stays after a release
// store), the trailing full barrier of the seq_cst store on RISC-V and
// SPARC RMO.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int r0, r1;

static void *t0(void *arg) {
  (void)arg;
  atomic_store(&x, 1);
  r0 = atomic_load(&y);
  return NULL;
}

static void *t1(void *arg) {
  (void)arg;
  y = 1;
  r1 = x;
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t0, NULL);
  pthread_create(&b, NULL, t1, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(r0 == 1 || r1 == 1);
  return 0;
}
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
