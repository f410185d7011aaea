package smt

/*
#include "z3shim.h"
*/
import "C"

import "fmt"

// Version returns the version of the Z3 library that fencer is linked
// with, as "major.minor.build.revision" (for example "4.8.12.0").
//
// Maps to: Z3_get_version.
func Version() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d.%d", major, minor, build, rev)
}
