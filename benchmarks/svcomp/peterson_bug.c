// Peterson's lock with the wait of thr1 broken (it waits on its own
// flag): both threads can be inside. reach_error is called
// (peterson_bug.yml: false), the trace ends at the assert of one thread.
extern void abort(void);
void reach_error() {}
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
  while (flag1 == 0 && turn == 0) {}
  inside = inside + 1;
  assert(inside == 1);
  inside = inside - 1;
  flag1 = 0;
  return 0;
}

int main() {
  pthread_t t0, t1;
  pthread_create(&t0, 0, thr0, 0);
  pthread_create(&t1, 0, thr1, 0);
  return 0;
}
