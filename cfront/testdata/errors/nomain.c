int x;
void f(void) { x = 1; }
