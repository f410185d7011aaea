// Package htmlpage draws fencer's witnesses as one self-contained page
// (insert --explain --html FILE, verify --html FILE): HTML with inline CSS
// and SVG, no script and nothing fetched from the network.
//
// A run under a store-buffer model (sc, tso, pso) is a timeline
// (timeline.go): one lane per process that moves, one box per step at its
// source line, each buffered write a bar from the step that issues it to
// the step where it reaches memory, the reordering the fence forbids (or,
// for a trace to a bad state, every reordering it depends on) marked, and
// the property that fails. An execution under arm, riscv or rmo is its
// execution graph (graph.go): the events of each process in program order,
// rf, co and fr, and the cycle the model allows and SC forbids, with its
// program-order pair that the change orders marked.
//
// The page is also well-formed XML (void elements closed, no named
// entities), so that a test can parse it with encoding/xml and count one
// element per step and per event.
package htmlpage
