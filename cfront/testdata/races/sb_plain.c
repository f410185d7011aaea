// Store buffering with plain flags: both are raced on.
#include <pthread.h>
#include <stdint.h>

int flag[2];
int seen[2];

void *thread(void *arg) {
  int me = (int)(intptr_t)arg;
  flag[me] = 1;
  seen[me] = flag[1 - me];
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, thread, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return 0;
}
