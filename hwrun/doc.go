// Package hwrun builds a harness written by package cgen with the system C
// compiler and runs it on this machine's CPUs: the program as it really
// runs, round after round, counting the rounds that reached each bad state.
//
// Only an x86-64 host runs harnesses: the harness maps the model's steps to
// x86 instructions, and fences chosen for x86-TSO prove nothing on a weaker
// CPU. Each thread needs a CPU of its own (the threads spin; sharing CPUs
// would serialise them and hide the reorderings). HostCheck says why a host
// cannot run a harness; Run refuses such a host with an error of type
// *HostError.
//
// Not seeing a bad state in any number of rounds proves nothing: the
// relaxed behaviours depend on timing, and a bad state that needs a rare
// interleaving may never show. Only fencer's verdicts are proofs.
package hwrun
