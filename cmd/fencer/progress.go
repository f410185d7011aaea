package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
)

// A progress line: while insert or verify runs on a terminal, one line on
// stderr that is redrawn in place with the engine's Status (phase,
// refinement round, k, predicates, abstract states, fences) and the time
// spent. Nothing is drawn when stderr is not a terminal (a pipe, a file,
// CI), with --json - (a tool reads the output), with -q, or with -v (the
// debug log would interleave with it).

// quietFlag turns off the progress line and the statistics line.
var quietFlag = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no progress line and no statistics"}

// progressLine draws the status line.
type progressLine struct {
	w     io.Writer
	width int
	start time.Time

	mu    sync.Mutex
	last  cegar.Status
	have  bool
	shown bool

	stop chan struct{}
	done chan struct{}
}

// progressWanted says whether a command run with c draws a progress line.
func progressWanted(c *cli.Context) bool {
	if c.Bool("quiet") || c.String("json") == "-" || c.Bool("verbose") {
		return false
	}
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(os.Stderr.Fd())
}

// startProgress starts the line when wanted and returns the callback for
// cegar.Options.Status (nil when not wanted) and a function that erases
// the line and stops redrawing (to call before printing anything).
func startProgress(c *cli.Context) (func(cegar.Status), func()) {
	if !progressWanted(c) {
		return nil, func() {}
	}
	p := newProgressLine(os.Stderr, termWidth(os.Stderr.Fd()))
	go p.loop(100 * time.Millisecond)
	return p.update, p.finish
}

func newProgressLine(w io.Writer, width int) *progressLine {
	return &progressLine{w: w, width: width, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
}

// update records the latest status; drawing is the loop's (the engine
// calls this from its hot loop).
func (p *progressLine) update(s cegar.Status) {
	p.mu.Lock()
	p.last, p.have = s, true
	p.mu.Unlock()
}

func (p *progressLine) loop(every time.Duration) {
	defer close(p.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.draw()
		}
	}
}

func (p *progressLine) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.have {
		return
	}
	line := statusText(p.last, time.Since(p.start))
	if r := []rune(line); p.width > 1 && len(r) > p.width-1 {
		line = string(r[:p.width-1]) // one column spare: no wrap at the edge
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	p.shown = true
}

// finish stops the redraws and erases the line.
func (p *progressLine) finish() {
	select {
	case <-p.stop:
		return
	default:
	}
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// statusText is the text of the line, e.g.
//
//	TSO · round 3 · k=1 · 12 predicates · 1544 states · 1 fence · 2.3s
func statusText(s cegar.Status, elapsed time.Duration) string {
	parts := []string{s.Phase, fmt.Sprintf("round %d", s.Round)}
	if s.Phase != "SC" {
		parts = append(parts, fmt.Sprintf("k=%d", s.K))
	}
	parts = append(parts, plural(s.Predicates, "predicate"), plural(s.States, "abstract state"))
	if s.Phase != "SC" {
		parts = append(parts, plural(s.Fences, "fence"))
	}
	parts = append(parts, fmt.Sprintf("%.1fs", elapsed.Seconds()))
	return "fencer: " + strings.Join(parts, " · ")
}
