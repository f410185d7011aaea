// Syntax errors: the parser recovers and goes on.
shared x, y;
process P {
  local r;
  x = 1 /* ERROR "expected ';', found '}'" */ }
process Q {
  local r;
  r = ; /* ERROR "expected expression, found ';'" */
  r = 3 + * 2; /* ERROR "\* is only allowed as a condition" */
  if x == 1) r = 1; /* ERROR "expected '\(', found identifier x" */
  r = foo(1); /* ERROR "unknown function foo" */
  r = cas(x, 1, 2) + 1; /* ERROR "cas\(...\) must be the whole right-hand side" */
  assume(swap(x, 1)); /* ERROR "swap is only allowed as the whole right-hand side" */
  r = fetch_add(x); /* ERROR "fetch_add takes 2 arguments, not 1" */
}
