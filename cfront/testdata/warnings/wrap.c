#include <pthread.h>
#include <stdatomic.h>
volatile unsigned char seq;
volatile unsigned free_slots;
void *t(void *a) {
  seq++;
  free_slots--;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  return 0;
}
