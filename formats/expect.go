package formats

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"fencer/cs"
	"fencer/memmodel"
)

// Expectation is one expectation line of a file, "// fencer: expect
// MODEL WHAT" in .cs (each format has its comment syntax: Format.Expect):
// what fencer check expects of the program under MODEL.
type Expectation struct {
	Line, Col int // of the comment
	Model     memmodel.Model
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

// looseRE finds a comment that starts with the word fencer, in any
// comment syntax and any case, with or without the colon; group 1 is the
// word that follows. A line it finds is an expectation, or a near miss
// (nearMiss), or a comment about fencer ("// fencer finds the same
// count").
var looseRE = regexp.MustCompile(`(?i)(?://|/\*|\(\*)\s*fencer\b\s*:?\s*([a-z]*)`)

// nearMiss reports whether a comment "fencer[:] word" means to be an
// expectation: the word is "expect" give or take two letters, in any case
// ("expct", "Expect", "expects").
func nearMiss(word string) bool {
	return editDistance(strings.ToLower(word), "expect") <= 2
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Expectations reads the expectation lines of src, the file name of
// format f. Each malformed line is a positioned error in errs (its column
// is that of the comment); the well-formed ones are returned all the
// same, in line order. A comment that starts "fencer" followed by a word
// close to "expect", in any comment syntax and any case ("// Fencer:
// expect", "// fencer expect", "/* fencer: expect */" in .cs, "//
// fencer: expct"), is a malformed line: a misspelled expectation must not
// leave a file silently unchecked.
func (f *Format) Expectations(name string, src []byte) (exps []Expectation, errs cs.ErrorList) {
	re := expectRE(f.Expect)
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), cs.MaxInputSize+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		loc := looseRE.FindStringSubmatchIndex(line)
		if loc == nil || !nearMiss(line[loc[2]:loc[3]]) {
			continue
		}
		pos := cs.Position{Filename: name, Line: n, Col: loc[0] + 1}
		bad := func(format string, args ...any) { errs.Add(pos, fmt.Sprintf(format, args...)) }
		m := re.FindStringSubmatch(line)
		if m == nil {
			bad("malformed expectation (want `%s fencer: expect MODEL safe|bug|fences=N%s`)", f.Expect.Open, closeSuffix(f.Expect))
			continue
		}
		model, err := memmodel.Parse(m[1])
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
