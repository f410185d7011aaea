// main reads the result before joining the thread that writes it: a
// race (the old check, which counted threads only, missed it).
#include <pthread.h>

int result;

void *worker(void *arg) {
  (void)arg;
  result = 1;
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  int r = result;
  pthread_join(t, NULL);
  return r;
}
