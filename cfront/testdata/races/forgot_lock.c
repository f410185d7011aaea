// One thread takes the lock, the other does not: a race.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *locked(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return NULL;
}

void *unlocked(void *arg) {
  (void)arg;
  counter = counter + 1;
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, locked, NULL);
  pthread_create(&b, NULL, unlocked, NULL);
  return 0;
}
