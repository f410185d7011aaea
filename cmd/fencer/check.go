package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
	"fencer/kabs"
)

// expectation is one "// fencer: expect MODEL WHAT" line.
type expectation struct {
	line   int
	model  kabs.Model
	bug    bool // "bug": wrong even under SC
	fences int  // "safe" is fences=0
	text   string
}

var expectRE = regexp.MustCompile(`^\s*//\s*fencer:\s*expect\s+(\S+)\s+(\S+)\s*$`)
var fencesRE = regexp.MustCompile(`^fences=(\d+)$`)

// expectations reads the expectation lines of src; a malformed one is an
// error naming its line.
func expectations(name string, src []byte) ([]expectation, error) {
	var out []expectation
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !regexp.MustCompile(`//\s*fencer:\s*expect`).MatchString(line) {
			continue
		}
		m := expectRE.FindStringSubmatch(line)
		if m == nil {
			return nil, fail(exitInput, "%s:%d: malformed expectation (want `// fencer: expect MODEL safe|bug|fences=N`)", name, n)
		}
		model, err := kabs.ParseModel(m[1])
		if err != nil {
			return nil, fail(exitInput, "%s:%d: %v", name, n, err)
		}
		e := expectation{line: n, model: model, text: m[1] + " " + m[2]}
		switch {
		case m[2] == "safe":
		case m[2] == "bug":
			e.bug = true
		case fencesRE.MatchString(m[2]):
			e.fences, _ = strconv.Atoi(fencesRE.FindStringSubmatch(m[2])[1])
		default:
			return nil, fail(exitInput, "%s:%d: unknown expectation %q (want safe, bug or fences=N)", name, n, m[2])
		}
		out = append(out, e)
	}
	return out, nil
}

func checkCommand() *cli.Command {
	flags := engineFlags()[1:] // every flag but --model: each expectation names its model
	return &cli.Command{
		Name:      "check",
		Usage:     "run every \"// fencer: expect\" line of the given files",
		ArgsUsage: "FILE...",
		Description: "For each expectation, runs fencer insert under its model and compares the verdict and\n" +
			"the number of fences. The last line is \"N passed, N failed\"; the exit code is 1 when any\n" +
			"expectation fails or cannot be decided.",
		Flags: flags,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return fail(exitInput, "check: no files given")
			}
			passed, failed := 0, 0
			for _, path := range c.Args().Slice() {
				src, err := os.ReadFile(path)
				if err != nil {
					return fail(exitInput, "%v", err)
				}
				exps, err := expectations(path, src)
				if err != nil {
					return err
				}
				if len(exps) == 0 {
					fmt.Printf("%s: no expectations\n", path)
					continue
				}
				sys, err := parsePath(path)
				if err != nil {
					return err
				}
				for _, e := range exps {
					got, ok := checkOne(c, sys, e)
					status := "FAIL"
					if ok {
						status = "ok  "
						passed++
					} else {
						failed++
					}
					fmt.Printf("%s %s:%d: expect %s: got %s\n", status, sys.File.Name, e.line, e.text, got)
				}
			}
			fmt.Printf("%d passed, %d failed\n", passed, failed)
			if failed > 0 {
				return fail(exitBad, "")
			}
			return nil
		},
	}
}

// checkOne runs one expectation and describes what fencer found.
func checkOne(c *cli.Context, sys *cs.System, e expectation) (string, bool) {
	r, _, err := runEngine(c, sys, e.model, true)
	if err != nil {
		return "error: " + err.Error(), false
	}
	switch r.Verdict {
	case cegar.SCBug:
		return "sc bug", e.bug
	case cegar.Correct:
		got := fmt.Sprintf("fences=%d", len(r.Fences))
		if len(r.Fences) == 0 {
			got = "safe (fences=0)"
		}
		return fmt.Sprintf("%s (%.1fs)", got, r.Stats.Time.Seconds()), !e.bug && e.fences == len(r.Fences)
	}
	return "unknown: " + r.Reason, false
}
