// The SV-COMP conventions fencer reads (docs/c.md, "SV-COMP tasks"), in
// one program of fencer's own: abort() and exit() end a run without an
// error, reach_error() is the error (here inside an atomic function and
// an atomic section, behind an ERROR label nothing jumps to), '$' in
// names, a tentative definition before the definition, a _Bool that
// stores 0 or 1, unused globals of types fencer does not model, a
// pointer with one target and a pointer parameter. No call of reach_error
// is reachable (conventions.yml: true); conventions_bug.c is this program
// without the abort() that guards one call (false).
extern void abort(void);
extern void exit(int);
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#include <pthread.h>

union u { int a; float f; } unused_union;
double unused_double;
int x;
int x = 1;
_Bool flag$set = 7;
int *px;

void __VERIFIER_atomic_check(int v) {
  if (v != 1 && v != 2) { ERROR: reach_error(); }
}

void read_into(int *dst) { *dst = x; }

void *t0(void *arg) {
  int n = __VERIFIER_nondet_int();
  int local$v;
  if (n > 5) abort();
  if (n > 5) reach_error();
  if (n < -5) { exit(0); }
  if (n < -5) reach_error();
  if (flag$set != 1) reach_error();
  read_into(&local$v);
  __VERIFIER_atomic_check(local$v);
  px = &x;
  __VERIFIER_atomic_begin();
  if (*px != 1 && *px != 2) { ERROR: reach_error(); }
  __VERIFIER_atomic_end();
  return 0;
}

void *t1(void *arg) {
  __VERIFIER_atomic_begin();
  x = 2;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  if (x != 2) reach_error();
  return 0;
}
