package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"

	"fencer/cegar"
)

func benchCommand() *cli.Command {
	flags := append(engineFlags(), &cli.IntFlag{Name: "runs", Value: 3, Usage: "runs per program (the median time is shown)"})
	return &cli.Command{
		Name:      "bench",
		Usage:     "run insert on programs several times and print a table of results and median times",
		ArgsUsage: "FILE...",
		Flags:     flags,
		Action: func(c *cli.Context) error {
			m, err := modelOf(c)
			if err != nil {
				return err
			}
			t := tablewriter.NewWriter(os.Stdout)
			t.SetHeader([]string{"program", "verdict", "fences", "k", "predicates", "refinements (p/k/f)", "states", "queries", "median s"})
			t.SetAutoFormatHeaders(false)
			for _, path := range c.Args().Slice() {
				sys, err := parsePath(path)
				if err != nil {
					return err
				}
				var times []time.Duration
				var last *cegar.Result
				for i := 0; i < c.Int("runs"); i++ {
					r, _, err := runEngine(c, sys, m, true)
					if err != nil {
						return engineError(err)
					}
					times = append(times, r.Stats.Time)
					last = r
				}
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				s := last.Stats
				verdict := last.Verdict.String()
				if last.Verdict == cegar.Unknown {
					verdict += ": " + last.Reason
				}
				t.Append([]string{path, verdict, strconv.Itoa(len(last.Fences)), strconv.Itoa(s.K), strconv.Itoa(s.Predicates),
					fmt.Sprintf("%d/%d/%d", s.Refinements["predicates"], s.Refinements["k"], s.Refinements["fences"]),
					strconv.Itoa(s.States), strconv.Itoa(s.Queries), fmt.Sprintf("%.2f", times[len(times)/2].Seconds())})
			}
			t.Render()
			return nil
		},
	}
}
