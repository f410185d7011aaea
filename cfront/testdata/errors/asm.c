#include <pthread.h>
int x;
void *t(void *a) {
  asm volatile("lock; addl $0,0(%%rsp)" ::: "memory");
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
