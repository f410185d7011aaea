package formats

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"

	"fencer/cs"
	"fencer/kabs"
)

// Expectation is one expectation line of a file, "// fencer: expect
// MODEL WHAT" in .cs (each format has its comment syntax: Format.Expect):
// what fencer check expects of the program under MODEL.
type Expectation struct {
	Line, Col int // of the comment
	Model     kabs.Model
	Bug       bool // "bug": wrong even under SC
	Fences    int  // "fences=N"; "safe" is 0
	What      string
}

// Text is the expectation as written: "tso fences=1".
func (e Expectation) Text() string { return e.Model.String() + " " + e.What }

var fencesRE = regexp.MustCompile(`^fences=(\d+)$`)

// expectRE is the regular expression of a well-formed expectation line
// in comment syntax c; the two groups are MODEL and WHAT.
func expectRE(c Comment) *regexp.Regexp {
	close := `\s*`
	if c.Close != "" {
		close = `\s*(?:` + regexp.QuoteMeta(c.Close) + `)\s*`
	}
	return regexp.MustCompile(`^\s*` + regexp.QuoteMeta(c.Open) + `\s*fencer:\s*expect\s+(\S+)\s+(\S+?)` + close + `$`)
}

// anyExpectRE finds a line that means to be an expectation.
var anyExpectRE = regexp.MustCompile(`(//|\(\*)\s*fencer:\s*expect`)

// Expectations reads the expectation lines of src, the file name of
// format f. Each malformed line is a positioned error in errs (its column
// is that of the comment); the well-formed ones are returned all the
// same, in line order.
func (f *Format) Expectations(name string, src []byte) (exps []Expectation, errs cs.ErrorList) {
	re := expectRE(f.Expect)
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), cs.MaxInputSize+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		loc := anyExpectRE.FindStringIndex(line)
		if loc == nil {
			continue
		}
		pos := cs.Position{Filename: name, Line: n, Col: loc[0] + 1}
		bad := func(format string, args ...any) { errs.Add(pos, fmt.Sprintf(format, args...)) }
		m := re.FindStringSubmatch(line)
		if m == nil {
			bad("malformed expectation (want `%s fencer: expect MODEL safe|bug|fences=N%s`)", f.Expect.Open, closeSuffix(f.Expect))
			continue
		}
		model, err := kabs.ParseModel(m[1])
		if err != nil {
			bad("%v", err)
			continue
		}
		e := Expectation{Line: n, Col: pos.Col, Model: model, What: m[2]}
		switch {
		case m[2] == "safe":
		case m[2] == "bug":
			e.Bug = true
		case fencesRE.MatchString(m[2]):
			k, err := strconv.Atoi(fencesRE.FindStringSubmatch(m[2])[1])
			if err != nil {
				bad("fence count out of range")
				continue
			}
			e.Fences = k
		default:
			bad("unknown expectation %q (want safe, bug or fences=N)", m[2])
			continue
		}
		exps = append(exps, e)
	}
	if err := sc.Err(); err != nil {
		errs.Add(cs.Position{Filename: name}, err.Error())
	}
	return exps, errs
}

func closeSuffix(c Comment) string {
	if c.Close == "" {
		return ""
	}
	return " " + c.Close
}
