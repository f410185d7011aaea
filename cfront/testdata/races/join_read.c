// main writes the inputs before the creates and reads the results after
// the joins: no race.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

int in[2], out[2];

void *worker(void *arg) {
  int me = (int)(intptr_t)arg;
  out[me] = in[me] + 1;
  return NULL;
}

int main(void) {
  pthread_t t[2];
  in[0] = 10;
  in[1] = 20;
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(out[0] + out[1] == 32);
  return 0;
}
