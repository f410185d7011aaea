// Package report turns fencer's results into what a person or a program
// reads: the rows of a trace (trace.go) with the statements as written in
// the file's own format (source.go), the reorderings a trace depends on
// and the one each fence forbids (explain.go), the tables of a trace in
// rows or one column per process (layout.go), the JSON reports of insert,
// verify and explore (report.go; documented in docs/report.md, schema in
// docs/report.schema.json), and those of insert --robust with the
// critical cycle each fence breaks (robust.go).
//
// It knows no command line: the commands choose the layout, where the
// text goes and where a report is written.
package report
