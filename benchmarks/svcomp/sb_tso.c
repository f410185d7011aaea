// Store buffering instrumented for TSO in the style of SV-COMP's
// pthread-wmm tasks (fencer's own program): each thread's store goes to a
// buffer of one slot (x$w_buff0, x$w_buff0_used), a nondeterministic
// choice flushes it early, the rest is flushed at the end. Checked under
// SC, the instrumented program has TSO's runs: r0 == 0 && r1 == 0 is
// reached (sb_tso.yml: false). With -D FENCED each thread flushes before
// its read, as an mfence would (sb_tso_fenced.yml: true). The flush
// sections have hundreds of paths: fencer runs them as steps under a lock
// (docs/c.md, "SV-COMP tasks").
extern _Bool __VERIFIER_nondet_bool(void);
extern void abort(void);
extern void __VERIFIER_error() __attribute__((__noreturn__));
void __VERIFIER_assert(int expression) { if (!expression) { ERROR: __VERIFIER_error(); }; return; }
extern void __VERIFIER_atomic_begin();
extern void __VERIFIER_atomic_end();
#include <pthread.h>
#define TRUE (_Bool)1
#define FALSE (_Bool)0

int __unbuffered_cnt;
int __unbuffered_cnt = 0;
int r0;
int r0 = 0;
int r1;
int r1 = 0;
_Bool main$tmp_guard0;
_Bool main$tmp_guard1;
int x;
int x = 0;
int x$w_buff0;
_Bool x$w_buff0_used;
_Bool x$r_buff0_thd1;
int *x$read_delayed_var;
int y;
int y = 0;
int y$w_buff0;
_Bool y$w_buff0_used;
_Bool y$r_buff0_thd2;
int *y$read_delayed_var;
_Bool weak$$choice2;

void *P0(void *arg) {
  __VERIFIER_atomic_begin();
  x$w_buff0 = 1;
  __VERIFIER_assert(!x$w_buff0_used);
  x$w_buff0_used = TRUE;
  x$r_buff0_thd1 = TRUE;
  __VERIFIER_atomic_end();
#ifndef FENCED
  __VERIFIER_atomic_begin();
  weak$$choice2 = __VERIFIER_nondet_bool();
  x = x$w_buff0_used && x$r_buff0_thd1 && !weak$$choice2 ? x$w_buff0 : x;
  x$w_buff0 = weak$$choice2 || !x$w_buff0_used || !x$r_buff0_thd1 ? x$w_buff0 : x$w_buff0;
  x$w_buff0_used = x$w_buff0_used && x$r_buff0_thd1 && !weak$$choice2 ? FALSE : x$w_buff0_used;
  x$r_buff0_thd1 = x$w_buff0_used && x$r_buff0_thd1 ? x$r_buff0_thd1 : FALSE;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  r0 = y;
  __VERIFIER_atomic_end();
#endif
  __VERIFIER_atomic_begin();
  x = x$w_buff0_used && x$r_buff0_thd1 ? x$w_buff0 : x;
  x$w_buff0_used = x$w_buff0_used && x$r_buff0_thd1 ? FALSE : x$w_buff0_used;
  x$r_buff0_thd1 = x$w_buff0_used && x$r_buff0_thd1 ? FALSE : x$r_buff0_thd1;
  __VERIFIER_atomic_end();
#ifdef FENCED
  __VERIFIER_atomic_begin();
  r0 = y;
  __VERIFIER_atomic_end();
#endif
  __VERIFIER_atomic_begin();
  __unbuffered_cnt = __unbuffered_cnt + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *P1(void *arg) {
  __VERIFIER_atomic_begin();
  y$w_buff0 = 1;
  __VERIFIER_assert(!y$w_buff0_used);
  y$w_buff0_used = TRUE;
  y$r_buff0_thd2 = TRUE;
  __VERIFIER_atomic_end();
#ifndef FENCED
  __VERIFIER_atomic_begin();
  weak$$choice2 = __VERIFIER_nondet_bool();
  y = y$w_buff0_used && y$r_buff0_thd2 && !weak$$choice2 ? y$w_buff0 : y;
  y$w_buff0 = weak$$choice2 || !y$w_buff0_used || !y$r_buff0_thd2 ? y$w_buff0 : y$w_buff0;
  y$w_buff0_used = y$w_buff0_used && y$r_buff0_thd2 && !weak$$choice2 ? FALSE : y$w_buff0_used;
  y$r_buff0_thd2 = y$w_buff0_used && y$r_buff0_thd2 ? y$r_buff0_thd2 : FALSE;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  r1 = x;
  __VERIFIER_atomic_end();
#endif
  __VERIFIER_atomic_begin();
  y = y$w_buff0_used && y$r_buff0_thd2 ? y$w_buff0 : y;
  y$w_buff0_used = y$w_buff0_used && y$r_buff0_thd2 ? FALSE : y$w_buff0_used;
  y$r_buff0_thd2 = y$w_buff0_used && y$r_buff0_thd2 ? FALSE : y$r_buff0_thd2;
  __VERIFIER_atomic_end();
#ifdef FENCED
  __VERIFIER_atomic_begin();
  r1 = x;
  __VERIFIER_atomic_end();
#endif
  __VERIFIER_atomic_begin();
  __unbuffered_cnt = __unbuffered_cnt + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main() {
  pthread_t t0, t1;
  pthread_create(&t0, NULL, P0, NULL);
  pthread_create(&t1, NULL, P1, NULL);
  __VERIFIER_atomic_begin();
  main$tmp_guard0 = __unbuffered_cnt == 2;
  __VERIFIER_atomic_end();
  if (!(main$tmp_guard0)) { abort(); }
  __VERIFIER_atomic_begin();
  main$tmp_guard1 = !(r0 == 0 && r1 == 0);
  __VERIFIER_atomic_end();
  __VERIFIER_assert(main$tmp_guard1);
  return 0;
}
