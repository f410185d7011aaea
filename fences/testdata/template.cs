// patch: lines=8
// Peterson's lock: one site serves both instances of the template.
const N = 2;
shared flag[N], turn;

process P[i in 0..N-1] {
  while (1) {
    flag[i] = 1;
    turn = 1 - i;
    while (flag[1-i] == 1 && turn == 1 - i) { }
cs: skip;
    flag[i] = 0;
  }
}

mutex cs;
