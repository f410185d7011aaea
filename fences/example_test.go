package fences_test

import (
	"fmt"

	"fencer/cs"
	"fencer/fences"
)

func ExampleMinHittingSet() {
	// Three counterexamples: each can be ruled out by a fence at one of its
	// candidate sites.
	cands := [][]int{{0, 2}, {1, 2}, {3}}
	fmt.Println(fences.MinHittingSet(cands))
	fmt.Println(fences.MinHittingSet([][]int{{1}, {}}))
	// Output:
	// [2 3] true
	// [] false
}

func ExampleFenceEdits() {
	src := []byte(`shared x, y;
process A {
  x = 1; // store
  if (x) y = 1;
}
`)
	sys, err := cs.Parse("a.cs", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	// A fence at every point of the program: after each statement, and
	// before and after the body of the if, which gets braces.
	out, err := fences.Apply(src, fences.FenceEdits(src, sys.Sites))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// shared x, y;
	// process A {
	//   x = 1; // store
	//   fence;
	//   if (x) { fence; y = 1; fence; }
	//   fence;
	// }
}
