#include <pthread.h>
#include <stdlib.h>
int x;
void *t(void *a) {
  x = (int)(long)malloc(4);
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
