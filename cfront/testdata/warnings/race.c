#include <pthread.h>
int counter;
volatile int safe;
void *t(void *a) {
  counter = counter + 1;
  safe = safe + 1;
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, t, 0);
  return 0;
}
