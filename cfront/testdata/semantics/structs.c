// Message passing through an array of structs: data then ready.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1
#include <assert.h>
#include <pthread.h>
struct slot { volatile int data; volatile int ready; } slots[2];
static void *writer(void *arg) {
  (void)arg;
  slots[1].data = 42;
  slots[1].ready = 1;
  return NULL;
}
static void *reader(void *arg) {
  (void)arg;
  if (slots[1].ready)
    assert(slots[1].data == 42);
  return NULL;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  return 0;
}
