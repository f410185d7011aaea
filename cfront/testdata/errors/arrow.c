#include <pthread.h>
struct s { int a; } v;
void *t(void *arg) {
  struct s *p = arg;
  p->a = 1;
  return 0;
}
int main(void) { pthread_t h; pthread_create(&h, 0, t, &v); return 0; }
