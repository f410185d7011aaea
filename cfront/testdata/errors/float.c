#include <pthread.h>
double d;
void *t(void *a) { d = 1.5; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
