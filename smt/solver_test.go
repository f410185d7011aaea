package smt

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	. "fencer/expr"
)

func newCtx(t testing.TB) *Context {
	t.Helper()
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

var x, y, z = V("x"), V("y"), V("z")

// hard is a non-linear problem that Z3 cannot settle quickly: its checks
// run until interrupted.
var hard = And(Gt(x, N(100)), Gt(y, N(100)),
	Eq(Add(Mul(Mul(x, x), x), Mul(Mul(y, y), y)), Add(Mul(Mul(z, z), z), N(33))))

func TestSatUnsatWithModels(t *testing.T) {
	c := newCtx(t)
	tests := []struct {
		f    Expr
		want Result
	}{
		{And(Lt(x, y), Lt(y, z), Lt(z, x)), Unsat},
		{And(Lt(x, y), Lt(y, z)), Sat},
		{And(Eq(Add(x, y), N(10)), Eq(Sub(x, y), N(4))), Sat},
		{And(Eq(Mul(N(2), x), Add(Mul(N(2), y), N(1)))), Unsat}, // parity
		{Eq(Mod(x, N(2)), N(-1)), Sat},
		{And(Ge(x, N(0)), Eq(Mod(x, N(2)), N(-1))), Unsat},
		{Or(And(Le(x, N(0)), Ge(x, N(1))), Ne(x, x)), Unsat},
		{Implies(Gt(x, N(3)), Gt(x, N(2))), Sat},
		{Eq(Ite(Gt(x, N(0)), x, Neg(x)), N(-1)), Unsat}, // |x| = -1
		{Eq(Mul(x, y), N(6)), Sat},                      // non-linear
		{True, Sat},
		{False, Unsat},
	}
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tt := range tests {
		if err := s.Push(); err != nil {
			t.Fatal(err)
		}
		if err := s.Assert(tt.f); err != nil {
			t.Fatalf("%v: %v", tt.f, err)
		}
		got, err := s.Check()
		if got != tt.want || err != nil {
			t.Fatalf("Check(%v) = %v, %v; want %v", tt.f, got, err, tt.want)
		}
		if got == Sat {
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			env := func(name string) (int64, bool) { return m.Value(name) }
			if ok, err := Holds(tt.f, env); !ok || err != nil {
				t.Errorf("model of %v does not satisfy it: %v %v", tt.f, ok, err)
			}
			if v, err := m.Eval(tt.f); v != 1 || err != nil {
				t.Errorf("Eval(%v) = %d, %v; want 1", tt.f, v, err)
			}
		} else if _, err := s.Model(); err == nil {
			t.Errorf("Model after %v: no error", got)
		}
		if err := s.Pop(); err != nil {
			t.Fatal(err)
		}
		// The same through CheckWith and Context.Sat.
		if got, err := s.CheckWith(tt.f); got != tt.want || err != nil {
			t.Errorf("CheckWith(%v) = %v, %v; want %v", tt.f, got, err, tt.want)
		}
		if got, err := c.Sat(tt.f); got != tt.want || err != nil {
			t.Errorf("Sat(%v) = %v, %v; want %v", tt.f, got, err, tt.want)
		}
	}
}

func TestValid(t *testing.T) {
	c := newCtx(t)
	for _, tt := range []struct {
		f    Expr
		want bool
	}{
		{Implies(And(Le(x, y), Le(y, z)), Le(x, z)), true},
		{Implies(Le(x, y), Lt(x, y)), false},
		{Eq(Add(Mul(N(2), Div(x, N(2))), Mod(x, N(2))), x), true}, // C's identity
		{Eq(Div(Neg(x), N(3)), Neg(Div(x, N(3)))), true},          // truncation is odd
		{Le(Mod(x, N(5)), N(4)), true},
		{Ge(Mod(x, N(5)), N(0)), false},
	} {
		if got, err := c.Valid(tt.f); got != tt.want || err != nil {
			t.Errorf("Valid(%v) = %v, %v; want %v", tt.f, got, err, tt.want)
		}
	}
}

func TestPushPopScopesAndModelStaleness(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	defer s.Close()
	if err := s.Pop(); err == nil {
		t.Fatal("Pop without Push: no error")
	}
	s.Assert(Ge(x, N(5)))
	s.Push()
	s.Assert(Le(x, N(4)))
	if r, _ := s.Check(); r != Unsat {
		t.Fatalf("got %v", r)
	}
	s.Pop()
	if r, _ := s.Check(); r != Sat {
		t.Fatalf("got %v", r)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.Value("x"); !ok || v < 5 {
		t.Fatalf("x = %d, %v", v, ok)
	}
	s.Assert(Le(x, N(7)))
	if _, err := m.Eval(x); !errors.Is(err, ErrStaleModel) {
		t.Fatalf("stale model: %v", err)
	}
	if s.String() == "" {
		t.Error("empty String")
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.CheckWith(Le(x, N(4))); r != Sat {
		t.Fatalf("after Reset: %v", r)
	}
}

func TestCheckAssumptionsCore(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	defer s.Close()
	s.Assert(Le(x, y))
	r, err := s.CheckAssumptions(Ge(z, N(0)), Gt(x, y), Le(z, N(5)))
	if r != Unsat || err != nil {
		t.Fatalf("got %v, %v", r, err)
	}
	if core := s.UnsatCore(); len(core) != 1 || core[0] != 1 {
		t.Errorf("core = %v, want [1]", core)
	}
	r, err = s.CheckAssumptions(Ge(z, N(0)), Le(z, N(5)))
	if r != Sat || err != nil {
		t.Fatalf("got %v, %v", r, err)
	}
	if core := s.UnsatCore(); core != nil {
		t.Errorf("core after sat = %v", core)
	}
	m, _ := s.Model()
	if v, _ := m.Value("z"); v < 0 || v > 5 {
		t.Errorf("z = %d", v)
	}
	// Assumptions are not asserted.
	if r, _ := s.CheckWith(Lt(z, N(0))); r != Sat {
		t.Errorf("assumption stuck: %v", r)
	}
}

func TestCloseIdempotent(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := c.NewSolver()
	s.Assert(Le(x, N(1)))
	s.Check()
	m, _ := s.Model()
	s.Close()
	s.Close()
	if _, err := s.Check(); !errors.Is(err, ErrClosed) {
		t.Errorf("Check on closed solver: %v", err)
	}
	s2, _ := c.NewSolver()
	c.Close()
	c.Close()
	s2.Close() // after its context: harmless
	c.Interrupt()
	for _, err := range []error{
		func() error { _, err := c.Sat(True); return err }(),
		func() error { _, err := c.NewSolver(); return err }(),
		func() error { _, _, err := c.Interpolate([]Expr{True, False}, 0); return err }(),
		func() error { _, err := s2.Check(); return err }(),
		func() error { _, err := m.Eval(x); return err }(),
		func() error { _, err := c.Simplify(x); return err }(),
	} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("after Close: %v, want ErrClosed", err)
		}
	}
	c.ClearCache()
}

// TestZ3ErrorsAreGoErrors feeds ill-sorted terms through the C helpers: Z3
// must report them as errors, not exit the process.
func TestZ3ErrorsAreGoErrors(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	defer s.Close()
	bad := []Expr{
		&App{Op: OpAdd, Args: []Expr{True, N(1)}},
		&App{Op: OpAnd, Args: []Expr{x, y}},
		&App{Op: OpLe, Args: []Expr{Lt(x, y), N(1)}},
		Eq(Ite(x, y, z), N(0)), // an integer as a condition
	}
	for _, f := range bad {
		err := s.Assert(f)
		var zerr *Error
		if !errors.As(err, &zerr) || zerr.Msg == "" {
			t.Errorf("Assert(%v): %v, want a *smt.Error", f, err)
		}
		if r, err := c.Sat(f); r != Unknown || !errors.As(err, &zerr) {
			t.Errorf("Sat(%v) = %v, %v", f, r, err)
		}
	}
	// Malformed expressions are caught before Z3.
	for _, f := range []Expr{
		Div(x, y), Mod(x, N(0)),
		&App{Op: OpNot, Args: []Expr{True, True}},
		&App{Op: Op(99), Args: []Expr{x}},
		V(""), nil,
		(*App)(nil),
	} {
		if _, err := c.Sat(f); err == nil {
			t.Errorf("Sat(%v): no error", f)
		}
	}
	// The context still works, and a partly built program left nothing
	// behind in the cache that would make a later conversion fail.
	if r, err := c.Sat(And(Lt(x, y), Eq(Add(True, N(1)), N(2)))); err == nil {
		t.Errorf("mixed sorts: %v", r)
	}
	if r, err := s.CheckWith(Lt(x, y)); r != Sat || err != nil {
		t.Errorf("after errors: %v, %v", r, err)
	}
}

func TestTimeoutIsUnknown(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	defer s.Close()
	s.SetTimeout(150)
	start := time.Now()
	r, err := s.CheckWith(hard)
	var unk *ErrUnknown
	if r != Unknown || !errors.As(err, &unk) {
		t.Fatalf("got %v, %v", r, err)
	}
	if !unk.Timeout() {
		t.Errorf("reason %q, want timeout", unk.Reason)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timeout of 150ms took %v", d)
	}
	// The solver is still usable, and the timer does not hit the next query.
	s.SetTimeout(0)
	if r, err := s.CheckWith(Lt(x, y)); r != Sat || err != nil {
		t.Fatalf("after timeout: %v, %v", r, err)
	}
	// Context default for Sat.
	c.SetTimeout(100)
	if r, err := c.Sat(hard); r != Unknown || err == nil {
		t.Errorf("Sat with timeout: %v, %v", r, err)
	}
	if ok, err := c.Valid(Not(hard)); ok || err == nil {
		t.Errorf("Valid with timeout: %v, %v", ok, err)
	}
}

func TestInterrupt(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	defer s.Close()
	c.Interrupt() // nothing running: no effect on later queries
	if r, err := s.CheckWith(Lt(x, y)); r != Sat || err != nil {
		t.Fatalf("after idle Interrupt: %v, %v", r, err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		c.Interrupt()
	}()
	start := time.Now()
	r, err := s.CheckWith(hard)
	var unk *ErrUnknown
	if r != Unknown || !errors.As(err, &unk) || unk.Reason != "interrupted" {
		t.Fatalf("got %v, %v", r, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if r, err := s.CheckWith(Lt(x, y)); r != Sat || err != nil {
		t.Fatalf("after Interrupt: %v, %v", r, err)
	}
}

func TestWatch(t *testing.T) {
	c := newCtx(t)
	ctx, cancel := context.WithCancel(context.Background())
	stop := c.Watch(ctx)
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	r, err := c.Sat(hard)
	var unk *ErrUnknown
	if r != Unknown || !errors.As(err, &unk) || unk.Reason != "canceled" {
		t.Fatalf("got %v, %v", r, err)
	}
	// Later queries stop at once while the watch lasts...
	if r, err := c.Sat(True); r != Unknown || err == nil {
		t.Fatalf("after cancel: %v, %v", r, err)
	}
	stop()
	stop()
	// ... and run again after stop.
	if r, err := c.Sat(True); r != Sat || err != nil {
		t.Fatalf("after stop: %v, %v", r, err)
	}
	// A watch whose context is never done changes nothing.
	defer c.Watch(context.Background())()
	if r, err := c.Sat(Lt(x, y)); r != Sat || err != nil {
		t.Fatalf("idle watch: %v, %v", r, err)
	}
}

// TestUnclosedSolversAreReleased drops solvers without Close: their
// finalizers queue them and the context releases them on its goroutine.
func TestUnclosedSolversAreReleased(t *testing.T) {
	c := newCtx(t)
	for i := 0; i < 50; i++ {
		s, err := c.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		s.Assert(Le(x, N(int64(i))))
	}
	for i := 0; i < 5 && len(c.live) > 10; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		s, _ := c.NewSolver() // releases the queued ones
		s.Close()
	}
	if n := len(c.live); n > 10 {
		t.Errorf("%d solvers still live", n)
	}
}

// TestContextsInParallel runs four goroutines, each with its own context.
func TestContextsInParallel(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			c, err := NewContext()
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			s, _ := c.NewSolver()
			s.Assert(Le(x, y))
			for i := 0; i < 200; i++ {
				want, bound := Sat, int64(-1)
				if i%2 == 1 {
					want, bound = Unsat, 0
				}
				f := Gt(Sub(x, y), N(bound))
				if r, err := s.CheckWith(f); r != want || err != nil {
					errs <- fmt.Errorf("goroutine %d: %v: %v, %v", g, f, r, err)
					return
				}
			}
			if _, r, err := c.Interpolate(counterTrace(), 0); r != Unsat || err != nil {
				errs <- err
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestResultString(t *testing.T) {
	for r, want := range map[Result]string{Sat: "sat", Unsat: "unsat", Unknown: "unknown", 9: "Answer(9)"} {
		if r.String() != want {
			t.Errorf("%d: %q", r, r.String())
		}
	}
}

// TestInterruptStorm interrupts from another goroutine at random moments of
// many short queries: each answer is right or Unknown("interrupted"), Z3
// never reports a stale cancel as an error, and no scope is left behind.
func TestInterruptStorm(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	defer s.Close()
	s.Assert(Le(x, N(3)))
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
				c.Interrupt()
				time.Sleep(20 * time.Microsecond)
			}
		}
	}()
	interrupted := 0
	for i := 0; i < 3000; i++ {
		k := int64(i % 8)
		want := Sat
		if k > 3 {
			want = Unsat
		}
		var r Result
		var err error
		switch i % 3 {
		case 0:
			r, err = s.CheckWith(Ge(x, N(k)))
		case 1:
			r, err = c.Sat(And(Le(x, N(3)), Ge(x, N(k))))
		default:
			if err = s.Push(); err == nil {
				if err = s.Assert(Ge(x, N(k))); err == nil {
					r, err = s.Check()
				}
				if perr := s.Pop(); perr != nil {
					t.Fatalf("Pop: %v", perr)
				}
			}
		}
		var unk *ErrUnknown
		switch {
		case err == nil && r == want:
		case r == Unknown && errors.As(err, &unk) && unk.Reason == "interrupted":
			interrupted++
		default:
			t.Fatalf("query %d: %v, %v (want %v)", i, r, err, want)
		}
	}
	close(done)
	wg.Wait()
	t.Logf("%d of 3000 queries interrupted", interrupted)
	if r, err := s.CheckWith(Le(x, N(3))); r != Sat || err != nil {
		t.Fatalf("a scope was left behind: %v, %v", r, err)
	}
	if r, err := s.CheckWith(Ge(x, N(4))); r != Unsat || err != nil {
		t.Fatalf("the prefix is lost: %v, %v", r, err)
	}
	if _, err := c.Simplify(And(Le(x, N(3)), Le(x, N(5)))); err != nil {
		t.Fatalf("Simplify after the storm: %v", err)
	}
}

// TestRefBalance: every reference the shim takes is released, except one
// per cached term and the five fixed terms (two sorts, true, false, 0),
// after every kind of operation, failed ones included.
func TestRefBalance(t *testing.T) {
	c := newCtx(t)
	check := func(what string) {
		t.Helper()
		if got, want := c.refs(), int64(c.cacheSize()+5); got != want {
			t.Fatalf("after %s: %d references held, want %d", what, got, want)
		}
	}
	check("NewContext")
	s, _ := c.NewSolver()
	s.Assert(Le(x, y), Eq(Div(x, N(3)), Mod(y, N(-2))))
	s.Check()
	m, _ := s.Model()
	m.Eval(Add(x, y))
	check("Assert, Check, Model")
	s.CheckAssumptions(Gt(x, y), Lt(z, N(0)))
	check("CheckAssumptions")
	c.Simplify(Or(Le(x, N(1)), Le(x, N(2))))
	c.Format(Ne(x, y))
	check("Simplify, Format")
	s.Assert(And(Le(x, y), &App{Op: OpAdd, Args: []Expr{True, x}}))
	c.Sat(Or(Ge(z, N(4)), &App{Op: OpAnd, Args: []Expr{x}}))
	check("ill-sorted terms")
	c.Interpolate(counterTrace(), 0)
	c.Interpolate(bakeryTrace(), 0)
	c.Interpolate([]Expr{Eq(x, N(-7)), Eq(y, Div(x, N(2))), Ne(y, N(-3))}, 0)
	c.Interpolate([]Expr{Eq(x, N(0)), Eq(y, Add(x, N(1)))}, 0)
	c.Interpolate([]Expr{Eq(x, N(0)), &App{Op: OpOr, Args: []Expr{x}}}, 0)
	check("Interpolate")
	s.SetTimeout(50)
	s.CheckWith(hard)
	check("timeout")
	c.ClearCache()
	check("ClearCache")
	if c.refs() != 5 {
		t.Errorf("%d references after ClearCache", c.refs())
	}
}
