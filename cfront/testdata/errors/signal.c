#include <pthread.h>
#include <signal.h>
int x;
void *t(void *a) {
  raise(SIGINT);
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
