shared x;
process P {
  x = 1
  x = 2;
}
