#include <pthread.h>
#include <stdint.h>
#define STORE(v, e) __atomic_store_n(&(v), (e), __ATOMIC_RELAXED)
volatile int x, y;
static void *t(void *arg) {
	int r;
	x = 1; y = 2;
	STORE(x, 3); // a comment
	r = y;
done:	y = r; /* trailing */
	if (r) { x = 4; }
	return NULL;
}
int main(void) {
	pthread_t h;
	pthread_create(&h, NULL, t, NULL);
	return 0;
}
