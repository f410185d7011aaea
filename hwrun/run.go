package hwrun

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"fencer/cgen"
)

// HostError says why this host cannot run a harness.
type HostError struct{ Reason string }

func (e *HostError) Error() string { return e.Reason }

// HostCheck returns a *HostError when this host cannot run a harness of
// the given number of threads (not x86-64, or fewer usable CPUs than
// threads), else nil.
func HostCheck(threads int) error {
	if runtime.GOARCH != "amd64" {
		return &HostError{fmt.Sprintf("this host is %s/%s, not x86-64: the harness runs x86 instructions, and fences chosen for x86-TSO prove nothing on another CPU",
			runtime.GOOS, runtime.GOARCH)}
	}
	if n := runtime.NumCPU(); n < threads {
		return &HostError{fmt.Sprintf("the program has %d threads and this process may use %d CPUs: each thread needs a CPU of its own", threads, n)}
	}
	return nil
}

// CC is the C compiler and Flags its flags: -O2 as a user would build, and
// -fwrapv so that integers wrap around instead of being undefined.
var (
	CC    = "gcc"
	Flags = []string{"-O2", "-pthread", "-std=gnu11", "-fwrapv"}
)

// Build writes the harness h as dir/name.c and compiles it to dir/name; it
// returns the path of the program.
func Build(ctx context.Context, h *cgen.Harness, dir, name string) (string, error) {
	src := filepath.Join(dir, name+".c")
	bin := filepath.Join(dir, name)
	if err := os.WriteFile(src, h.Source, 0o644); err != nil {
		return "", err
	}
	args := append(append([]string(nil), Flags...), "-o", bin, src)
	cmd := exec.CommandContext(ctx, CC, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", CC, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return bin, nil
}

// Options say how long a harness runs.
type Options struct {
	Rounds     int64         // rounds to run (0: as many as fit in Time)
	Time       time.Duration // stop after this long (0: no limit; one of the two must be set)
	Iterations int           // iterations of each loop that writes, per thread and round
	Seed       uint64        // of the threads' random numbers
	// Progress, if not nil, is called about every 100 ms with the rounds
	// run and the rounds that reached a bad state so far.
	Progress func(rounds, hits int64)
}

// BadCount is how many rounds reached one bad state.
type BadCount struct {
	Name string
	Hits int64
}

// Result is what a run counted.
type Result struct {
	Rounds int64      // rounds run
	Hits   int64      // rounds that reached at least one bad state
	Bad    []BadCount // per bad state of the harness, in its order
	Time   time.Duration
}

// Run runs the harness program bin (built by Build from h).
func Run(ctx context.Context, h *cgen.Harness, bin string, opt Options) (*Result, error) {
	if err := HostCheck(h.Threads); err != nil {
		return nil, err
	}
	if opt.Rounds <= 0 && opt.Time <= 0 {
		return nil, errors.New("hwrun: neither a round count nor a time limit")
	}
	if opt.Iterations < 1 {
		opt.Iterations = 1
	}
	if opt.Time > 0 {
		// A round ends when its threads do, and every loop of a harness is
		// bounded; this only stops a harness that has gone wrong.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 2*opt.Time+time.Minute)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, bin, strconv.FormatInt(max(opt.Rounds, 0), 10),
		strconv.FormatInt(max(opt.Time.Milliseconds(), 0), 10), strconv.Itoa(opt.Iterations), strconv.FormatUint(opt.Seed, 10))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	res := &Result{Bad: make([]BadCount, len(h.Bad))}
	for i, name := range h.Bad {
		res.Bad[i].Name = name
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		num := func(i int) int64 {
			if i < len(f) {
				n, _ := strconv.ParseInt(f[i], 10, 64)
				return n
			}
			return 0
		}
		switch {
		case len(f) == 3 && f[0] == "progress":
			if opt.Progress != nil {
				opt.Progress(num(1), num(2))
			}
		case len(f) == 2 && f[0] == "rounds":
			res.Rounds = num(1)
		case len(f) == 2 && f[0] == "hits":
			res.Hits = num(1)
		case len(f) == 3 && f[0] == "bad":
			if i := num(1); i >= 0 && i < int64(len(res.Bad)) {
				res.Bad[i].Hits = num(2)
			}
		}
	}
	err = cmd.Wait()
	res.Time = time.Since(start)
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("%s did not stop within %v of its %v", bin, opt.Time+time.Minute, opt.Time)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 2 {
			return nil, &HostError{msg}
		}
		return nil, fmt.Errorf("%s: %v: %s", bin, err, msg)
	}
	return res, nil
}

// ClockWarning says why the time stamps of different CPUs may not be
// comparable on this host, or returns "". The harness tells that two
// threads were at their locations at once by comparing time stamp counters
// read on different CPUs; Linux uses the TSC as its clock source only when
// it found the CPUs' counters synchronised.
func ClockWarning() string {
	data, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	if err != nil {
		return ""
	}
	if cs := strings.TrimSpace(string(data)); cs != "tsc" {
		return fmt.Sprintf("the kernel's clock source is %s, not tsc: the CPUs' time stamp counters may not agree, and a bad state "+
			"made of several threads at their locations may be reported when they were not there at once", cs)
	}
	return ""
}
