#include <pthread.h>
int x;
static int f(int n) { return n == 0 ? 0 : f(n - 1); }
void *t(void *a) { x = f(3); return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
