#include <pthread.h>
#include <setjmp.h>
jmp_buf env;
int x;
void *t(void *a) {
  if (setjmp(env) == 0)
    x = 1;
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }
