// A plain counter touched only between pthread_mutex_lock and
// pthread_mutex_unlock, read by main after the joins: no race.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  assert(counter == 3);
  return 0;
}
