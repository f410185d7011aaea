#include <pthread.h>
int x;
int *p = &x;
void *t(void *a) { *p = 1; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
