// A single-producer single-consumer ring buffer with C11 atomics: the
// producer writes a slot, then publishes it by advancing head; the
// consumer reads head, then the slot. The consumer checks that it receives
// 1, 2, ... in order. Under TSO stores stay in order: safe as written with
// relaxed atomics. Under PSO the slot and head stores may reach memory out
// of order: one fence between them (a release store of head is the C11
// way to say it).
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SIZE 2
#define ITEMS 2

atomic_int buf[SIZE];
atomic_int head, tail;

static void *producer(void *arg) {
  (void)arg;
  int h = 0;
  for (int v = 1; v <= ITEMS;) {
    int t = atomic_load_explicit(&tail, memory_order_relaxed);
    if (h - t < SIZE) {
      atomic_store_explicit(&buf[h % SIZE], v, memory_order_relaxed);
      h++;
      atomic_store_explicit(&head, h, memory_order_relaxed);
      v++;
    }
  }
  return NULL;
}

static void *consumer(void *arg) {
  (void)arg;
  int t = 0, expect = 0;
  while (t < ITEMS) {
    int h = atomic_load_explicit(&head, memory_order_relaxed);
    if (t < h) {
      int x = atomic_load_explicit(&buf[t % SIZE], memory_order_relaxed);
      expect++;
      assert(x == expect);
      t++;
      atomic_store_explicit(&tail, t, memory_order_relaxed);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
