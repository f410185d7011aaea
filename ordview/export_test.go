package ordview

// GenProgram is genProgram, for the tests of package ordview_test.
var GenProgram = genProgram
