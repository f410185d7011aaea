package report

import (
	"fmt"
	"io"
	"strings"

	"fencer/cegar"
)

// Known is what an insert or verify that stopped early proved before it
// stopped (cegar.Known), and where it stopped: facts about parts of the
// runs, never about the program under the model as a whole.
type Known struct {
	// SCCorrect: insert's SC check ended, no bad state is reachable
	// under SC.
	SCCorrect bool       `json:"sc_correct"`
	Clean     []Explored `json:"clean"`
	// Stopped is the exploration the limit stopped; absent when the run
	// stopped outside one.
	Stopped *Explored `json:"stopped,omitempty"`
}

// Explored is a part of the runs (cegar.Part) and the abstract states an
// exploration of it stored, with the sentence the text output prints.
type Explored struct {
	Model       string   `json:"model"`
	Processes   []string `json:"processes"`    // the processes that move, the others idle; null: all
	MaxBuffered int      `json:"max_buffered"` // no store buffer holds more writes; 0: no bound
	Fenced      bool     `json:"fenced"`       // with the fences of partial installed
	States      int      `json:"states"`
	Text        string   `json:"text"`
}

// KnownOf is the report of k (nil for nil).
func KnownOf(k *cegar.Known) *Known {
	if k == nil {
		return nil
	}
	out := &Known{SCCorrect: k.SCCorrect, Clean: []Explored{}}
	for _, x := range k.Clean {
		out.Clean = append(out.Clean, exploredOf(x, CleanText(x)))
	}
	if k.Stopped != nil {
		x := exploredOf(*k.Stopped, StoppedText(*k.Stopped))
		out.Stopped = &x
	}
	return out
}

func exploredOf(x cegar.Explored, text string) Explored {
	return Explored{Model: x.Model.String(), Processes: x.Processes, MaxBuffered: x.MaxBuffered, Fenced: x.Fenced, States: x.States, Text: text}
}

// PrintKnown writes what a run that stopped early proved and where it
// stopped (nothing when r has no Known): one line per fact under a
// heading that says the program as a whole is not verified.
func PrintKnown(w io.Writer, r *cegar.Result) {
	k := r.Known
	if k == nil {
		return
	}
	if k.SCCorrect || len(k.Clean) > 0 {
		fmt.Fprintf(w, "proved before it stopped (the program as a whole is not verified under %s):\n", Upper(r.Model))
		if k.SCCorrect {
			fmt.Fprintf(w, "  SC: correct (no bad state in any run under SC)\n")
		}
		for _, x := range k.Clean {
			fmt.Fprintf(w, "  %s\n", CleanText(x))
		}
	}
	if k.Stopped != nil {
		fmt.Fprintf(w, "%s\n", StoppedText(*k.Stopped))
	}
}

// CleanText says that the part x has no bad state: "TSO: no bad state in
// the runs in which only P[0], P[1] move (215 abstract states)".
func CleanText(x cegar.Explored) string {
	return fmt.Sprintf("%s: no bad state in %s (%s)", scope(x.Part), runs(x.Part), plural(x.States, "abstract state"))
}

// StoppedText says which exploration was stopped and what it had stored.
func StoppedText(x cegar.Explored) string {
	return fmt.Sprintf("stopped in the exploration of %s under %s, after storing %s", runs(x.Part), scope(x.Part), plural(x.States, "abstract state"))
}

// scope is the model of p, with the fences when p assumes them.
func scope(p cegar.Part) string {
	if p.Fenced {
		return Upper(p.Model) + " with the fences above"
	}
	return Upper(p.Model)
}

// runs names the runs of p: "all runs", or "the runs in which only
// P[0], P[1] move and no store buffer holds more than 2 writes".
func runs(p cegar.Part) string {
	var what []string
	if p.Processes != nil {
		what = append(what, "only "+strings.Join(p.Processes, ", ")+" move")
	}
	if p.MaxBuffered > 0 {
		what = append(what, "no store buffer holds more than "+plural(p.MaxBuffered, "write"))
	}
	if len(what) == 0 {
		return "all runs"
	}
	return "the runs in which " + strings.Join(what, " and ")
}
