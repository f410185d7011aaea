#include <pthread.h>
volatile int x, y;
#define SET(v, e) do { (v) = (e); } while (0)
#define PUBLISH(v) if (1) { (v) = 1; } else (void)0
static void *t(void *arg) {
  (void)arg;
  SET(x, 1);
  if (x)
    SET(y, 2);
  PUBLISH(y); // publish
  return NULL;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, NULL, t, NULL);
  return 0;
}
