// fencer: expect tso fences=0
shared x;
process P {
  x = 1
  x = 2;
}
