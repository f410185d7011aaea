// Package fences chooses the fewest fences and writes them into the source.
//
// # Fence sites
//
// A fence site is a program point of the source (cs.Site, cs/sites.go):
// after a statement of a block, before the first statement of the body of
// an if, else, while or for, or before or after such a body written
// without braces. Inserting a fence at a site puts a fence step after every
// edge that passes the point (cs.Edge.Points), in every automaton built from
// it (every template instance, every unrolled copy of a for body):
// cs.System.WithFences, which is what the patched text lowers to. Sites are
// identified by cs.Site.ID, their index in cs.System.Sites.
//
// # Candidate sets and the minimum hitting set
//
// A real counterexample under TSO or PSO is a trace reaching a bad state
// that lets some write stay in a store buffer while later operations of
// its process go ahead. Its candidate set (Candidates) holds every point
// the process passes while its buffers are non-empty (checked at its next
// operation): a fence there would have to wait, so the trace would be
// gone. A fence set that contains no site of the candidate set keeps the
// trace (each of its fences is passed with empty buffers), so every correct
// fence set contains at least one site of the candidate set of every real
// counterexample: it is a hitting set of the candidate sets.
//
// Hence, after any number of counterexamples, a minimum hitting set of the
// candidate sets found so far is a lower bound: no correct fence set is
// smaller. The engine fences such a set and checks again; a new
// counterexample adds a candidate set, and when none is left the set is
// correct and, being a lower bound, minimum. An empty candidate set means
// the trace needs no reordering, a bug under SC that no fence can fix;
// MinHittingSet then reports that no hitting set exists.
//
// A fence of an answer is an Element: a site and a cs.FenceKind (full, or
// with --kinds full,store a store fence, whose candidate sets
// StoreCandidates gives; Blocking is the candidate set of a counterexample
// in elements). An Order ranks the elements of a system and owns the
// search over them: MinSet, the minimum hitting set of the candidate sets
// found so far, and NextMinimum, the other sets of that size in the order
// of preference (insert --all).
//
// Shrink makes the candidate sets smaller without a new argument: given
// a real counterexample, it searches the interleavings of its steps for
// another real run, replayed by memmodel.Concrete, whose candidate set
// (Blocking) is a proper subset of the first; the same reasoning makes
// that smaller set one that every correct fence set hits, and hitting it
// implies hitting the first. A smaller set rules out more fence sets at
// once: a run that needs one delayed process instead of all of them.
//
// MinHittingSet computes that set exactly, in the shape of weighted partial
// MaxSAT with unit weights: one hard clause per counterexample (fence one of
// its candidate sites) and one soft clause per site (do not fence it). Among
// several minimum sets it returns the lexicographically smallest sorted list
// of IDs, so results do not depend on the order in which counterexamples
// were found. Order.MinSet calls it through MinHittingSetRanked with the
// sites ranked by cs.Preferred (Rank): a fence of the source first (with
// --reconsider), then fewer enclosing while loops, then fewer unrolled
// copies (cs.Site.Copies: a point in a for body runs once per iteration),
// the point right after a write, no braces added, the earlier point; so
// ties go to the placement that executes the fewest fences.
//
// # Patching the source
//
// The output is the original bytes with edits applied, like a go/analysis
// SuggestedFix: Place patches a program with a fence set; under it,
// FenceEdits turns the chosen sites into position-based
// Edits (RemoveEdits deletes the fences --reconsider drops) and Apply
// applies them. Nothing is reprinted, so comments, layout and existing
// fences stay. The rules are FenceEdits' and RemoveEdits' (LANGUAGE.md,
// "Fences in the output"): a fence after a statement alone on its line
// gets a line of its own with the statement's indentation, one after a
// statement sharing its line goes right after it, one before the first
// statement of a body goes on its own line above it (or right before it),
// and a point inside a body without braces adds the braces. The patched
// text lowers to what cs.System.WithFences builds (the golden test checks
// it run by run).
package fences
