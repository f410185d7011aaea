#include <pthread.h>
int x
void *t(void *a) { return 0; }
