// A main that starts two threads, waits for both and checks what they
// read, in the C reader's encoding of pthread_create (a locked write of a
// start flag the thread waits for) and pthread_join (a locked wait for a
// done flag the thread sets last): main needs no CPU of its own.
shared x, y, r0, r1, go0, done0, go1, done1;

process main {
  local a, b;
  atomic { go0 = 1; }
  atomic { go1 = 1; }
  atomic { assume(done0 == 1); }
  atomic { assume(done1 == 1); }
  a = r0;
  b = r1;
  assert(a == 1 || b == 1);
}

process t0 {
  local r;
  atomic { assume(go0 == 1); }
  x = 1;
  r = y;
  r0 = r;
  atomic { done0 = 1; }
}

process t1 {
  local r;
  atomic { assume(go1 == 1); }
  y = 1;
  r = x;
  r1 = r;
  atomic { done1 = 1; }
}
