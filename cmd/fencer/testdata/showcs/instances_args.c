// Store buffering with one thread function started twice, its argument
// the thread's index: the two processes differ (flag[0] and flag[1]), so
// show --cs prints them as processes worker_0 and worker_1, not as one
// template.
#include <assert.h>
#include <pthread.h>

volatile int flag[2];
volatile int seen[2];

static void *worker(void *arg) {
  long id = (long)arg;
go:;
  flag[id] = 1;
  seen[id] = flag[1 - id];
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)0);
  pthread_create(&b, NULL, worker, (void *)1);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(seen[0] == 1 || seen[1] == 1);
  return 0;
}
// fencer: forbidden worker[0]@go, worker[1]@go
