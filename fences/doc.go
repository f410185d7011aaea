// Package fences chooses the fewest fences and writes them into the source.
//
// # Fence sites
//
// A fence site is a write statement of the source (cs.Site): "x = e;" with x
// shared, or an atomic form with a shared result, outside atomic blocks.
// Inserting a fence at a site puts a fence after that statement, so in
// every automaton built from it (every template instance, every unrolled
// copy of a for body) each write edge of the site is followed by a fence
// step (cs.System.WithFences). Sites are identified by cs.Site.ID, their
// index in cs.System.Sites.
//
// # Candidate sets and the minimum hitting set
//
// A real counterexample under TSO or PSO is a trace reaching a bad state
// that lets some write stay in a store buffer while later operations of
// its process go ahead. Its candidate set (Candidates) holds the sites of
// the writes after which the process's next operation still finds its
// buffers non-empty: a fence there would have to wait, so the trace would be
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
// MinHittingSet computes that set exactly, in the shape of weighted partial
// MaxSAT with unit weights: one hard clause per counterexample (fence one of
// its candidate sites) and one soft clause per site (do not fence it). Among
// several minimum sets it returns the lexicographically smallest sorted list
// of IDs, so results do not depend on the order in which counterexamples
// were found.
//
// # Patching the source
//
// The output is the original bytes with edits applied, like a go/analysis
// SuggestedFix: FenceEdits turns the chosen sites into position-based
// Edits and Apply applies them. Nothing is reprinted, so comments, layout
// and existing fences stay. The rules (LANGUAGE.md, "Fences in the output"):
//
//   - A write alone on its line (only whitespace, comments and labels before
//     it; only whitespace and comments closed on that line after it) gets
//     "fence;" on a new line right after its line, indented like the line
//     the write starts on. A trailing comment stays on the write's line.
//     The new line uses the line ending of the write's line; after a last
//     line without a newline the fence becomes the last line, also without
//     one.
//   - A write sharing its line with other statements or braces, or followed
//     by a "/*" comment that goes on to later lines, gets " fence;" right
//     after its ';' on the same line.
//   - A write that is the whole body of an if, else, while or for without
//     braces (cs.Site.BareBody) becomes "{ <write> fence; }", the only other
//     change allowed: a fence after it would otherwise leave the body.
//
// The patched source parses to the same sites with the same texts. Fencing
// a write that is already followed by a fence adds a second one; the engine
// does not choose such sites, since the existing fence already rules out
// their counterexamples.
package fences
