package main

import (
	"encoding/xml"
	"fmt"
	"strings"
)

// The JUnit XML of check --junit: one <testsuite> per file, one <testcase>
// per expectation (classname the file, name "MODEL expectation"), with a
// <failure> when the expectation does not hold and an <error> when the file
// cannot be read or parsed (one test case named "parse" for the file).

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Time     string     `xml:"time,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name     string    `xml:"name,attr"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Time     string    `xml:"time,attr"`
	Cases    []xmlCase `xml:"testcase"`
}

type xmlCase struct {
	Classname string      `xml:"classname,attr"`
	Name      string      `xml:"name,attr"`
	Time      string      `xml:"time,attr"`
	Failure   *xmlProblem `xml:"failure,omitempty"`
	Error     *xmlProblem `xml:"error,omitempty"`
}

type xmlProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// junitDoc builds the JUnit document of the results of check.
// With failEmpty a file without expectations is a failed test case.
func junitDoc(files []fileResult, failEmpty bool) xmlSuites {
	doc := xmlSuites{Name: "fencer check"}
	total := 0.0
	for _, fr := range files {
		suite := xmlSuite{Name: fr.path, Time: seconds(fr.time.Seconds())}
		total += fr.time.Seconds()
		if len(fr.errs) > 0 {
			suite.Cases = append(suite.Cases, xmlCase{Classname: fr.path, Name: "parse", Time: seconds(0),
				Error: &xmlProblem{Message: fr.errs[0], Type: "input", Text: strings.Join(fr.errs, "\n")}})
			suite.Errors++
		}
		if len(fr.errs) == 0 && len(fr.results) == 0 && failEmpty {
			suite.Cases = append(suite.Cases, xmlCase{Classname: fr.path, Name: "expectations", Time: seconds(0),
				Failure: &xmlProblem{Message: "no expectations: nothing was checked", Type: "empty"}})
			suite.Failures++
		}
		for _, r := range fr.results {
			tc := xmlCase{Classname: r.File, Name: r.Model + " " + r.Expected, Time: seconds(r.TimeSeconds)}
			if !r.Pass {
				got := r.Got
				if r.Reason != "" {
					got += ": " + r.Reason
				}
				var text strings.Builder
				fmt.Fprintf(&text, "expected: %s\ngot: %s\n", r.Expected, got)
				for _, f := range r.Fences {
					fmt.Fprintf(&text, "fence: %s:%d: after %s\n", r.File, f.Line, f.Statement)
				}
				p := &xmlProblem{Message: fmt.Sprintf("expected %s, got %s", r.Expected, got), Text: text.String()}
				if r.Got == "error" {
					p.Type = "error"
					tc.Error = p
					suite.Errors++
				} else {
					p.Type = "mismatch"
					tc.Failure = p
					suite.Failures++
				}
			}
			suite.Cases = append(suite.Cases, tc)
		}
		suite.Tests = len(suite.Cases)
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Errors += suite.Errors
		doc.Suites = append(doc.Suites, suite)
	}
	doc.Time = seconds(total)
	return doc
}

func writeJUnit(path string, files []fileResult, failEmpty bool) error {
	if path == "" {
		return nil
	}
	b, err := xml.MarshalIndent(junitDoc(files, failEmpty), "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append([]byte(xml.Header), append(b, '\n')...))
}
