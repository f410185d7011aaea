// Peterson's lock written in SV-COMP's idioms: reach_error defined as a
// call of __assert_fail, assert as a macro with an ERROR label,
// assume_abort_if_not with abort(). Correct under SC (peterson.yml).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "peterson.c", 7, "reach_error"); }
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
#include <pthread.h>
#define assert(e) if (!(e)) ERROR: reach_error()

int flag0 = 0, flag1 = 0;
int turn;
int inside;

void *thr0(void *_) {
  flag0 = 1;
  turn = 1;
  while (flag1 == 1 && turn == 1) {}
  inside = inside + 1;
  assert(inside == 1);
  inside = inside - 1;
  flag0 = 0;
  return 0;
}

void *thr1(void *_) {
  flag1 = 1;
  turn = 0;
  while (flag0 == 1 && turn == 0) {}
  inside = inside + 1;
  assert(inside == 1);
  inside = inside - 1;
  flag1 = 0;
  return 0;
}

int main() {
  pthread_t t0, t1;
  assume_abort_if_not(turn == 0);
  pthread_create(&t0, 0, thr0, 0);
  pthread_create(&t1, 0, thr1, 0);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  return 0;
}
