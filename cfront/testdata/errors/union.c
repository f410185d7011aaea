#include <pthread.h>
union u { int a; long b; } v;
void *t(void *a) { v.a = 1; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
