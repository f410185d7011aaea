// Package readkit is what fencer's readers of foreign formats (package rmm
// for Memorax models, package litmus for herd x86 tests) share, so that the
// two behave alike and each keeps only its own grammar: the token and the
// cursor over a token list, the integer literal (range checked once, at its
// position), the error discipline (the first syntax error ends the reading
// and becomes one "file:line:col: message" entry of a cs.ErrorList) and the
// last step, lowering the .cs syntax tree a reader builds with cs.Lower and
// attaching the reader to the System. cs.FenceEditor is what a
// reader offers insert --reconsider and --kinds store beyond
// cs.Reader.InsertFences: reading with the fences of the file as
// candidates, writing both kinds of fence and removing fences, as text
// edits (Edit, ApplyEdits).
package readkit
