#include <pthread.h>
volatile int x, y;
#define SET(v) v = 1;
#define CLEAR(v) (v) = 0 /* no ';' */
#define ONE x = 2;
static void *t(void *arg) {
  (void)arg;
  SET(x)
  SET  ( y /* ) */ );
  if (x)
    SET(y)
  else
    ONE
  CLEAR(x);
  return NULL;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, NULL, t, NULL);
  return 0;
}
