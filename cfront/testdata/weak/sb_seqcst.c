// Store buffering with seq_cst atomics: both loads may not miss both
// stores. Safe on every target by the mapping (AArch64: STLR then LDAR,
// which RCsc keeps in order; RISC-V and RMO: the trailing full barrier).
//
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int r0, r1;

void *t0(void *arg) {
  (void)arg;
  atomic_store(&x, 1);
  r0 = atomic_load(&y);
  return NULL;
}

void *t1(void *arg) {
  (void)arg;
  y = 1;
  r1 = y;
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
