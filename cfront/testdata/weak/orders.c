// Every memory order of the C11 atomic operations and GCC builtins, one
// thread each, for the golden file of the mapping (no property, no
// expectation: TestWeakInsert leaves it out).
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;
int y;
atomic_flag f = ATOMIC_FLAG_INIT;

void *loads(void *arg) {
  (void)arg;
  int r = atomic_load_explicit(&x, memory_order_relaxed);
  r = atomic_load_explicit(&x, memory_order_consume);
  r = atomic_load_explicit(&x, memory_order_acquire);
  r = atomic_load_explicit(&x, memory_order_seq_cst);
  r = atomic_load(&x);
  r = __atomic_load_n(&x, __ATOMIC_ACQUIRE);
  r = __atomic_load_n(&y, __ATOMIC_RELAXED);
  r = x;
  return NULL;
}

void *stores(void *arg) {
  (void)arg;
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  atomic_store_explicit(&x, 2, memory_order_release);
  atomic_store_explicit(&x, 3, memory_order_seq_cst);
  atomic_store(&x, 4);
  x = 5;
  __atomic_store_n(&y, 6, __ATOMIC_RELEASE);
  atomic_flag_clear_explicit(&f, memory_order_release);
  __sync_lock_release(&y);
  return NULL;
}

void *rmws(void *arg) {
  (void)arg;
  int e = 0;
  atomic_fetch_add_explicit(&x, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&x, 1, memory_order_acquire);
  atomic_fetch_sub_explicit(&x, 1, memory_order_release);
  atomic_exchange_explicit(&x, 1, memory_order_acq_rel);
  atomic_fetch_add(&x, 1);
  x++;
  atomic_compare_exchange_strong_explicit(&x, &e, 1, memory_order_release, memory_order_acquire);
  __atomic_exchange_n(&y, 1, __ATOMIC_ACQUIRE);
  __sync_lock_test_and_set(&y, 1);
  __sync_fetch_and_add(&y, 1);
  atomic_flag_test_and_set_explicit(&f, memory_order_relaxed);
  return NULL;
}

void *fences(void *arg) {
  (void)arg;
  atomic_thread_fence(memory_order_relaxed);
  atomic_thread_fence(memory_order_consume);
  atomic_thread_fence(memory_order_acquire);
  atomic_thread_fence(memory_order_release);
  atomic_thread_fence(memory_order_acq_rel);
  atomic_thread_fence(memory_order_seq_cst);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  __sync_synchronize();
  atomic_signal_fence(memory_order_seq_cst);
  return NULL;
}

int main(void) {
  pthread_t a, b, c, d;
  pthread_create(&a, NULL, loads, NULL);
  pthread_create(&b, NULL, stores, NULL);
  pthread_create(&c, NULL, rmws, NULL);
  pthread_create(&d, NULL, fences, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  pthread_join(d, NULL);
  return 0;
}
