// fence store; is in LANGUAGE.md but not implemented yet: a clear,
// positioned error instead of "expected ';'".
shared x, y;
process P {
  x = 1;
  fence store /* ERROR "fence store; \(a store-store fence\) is not supported yet" */;
  y = 1;
}
