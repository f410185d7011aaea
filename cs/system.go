package cs

import (
	"fmt"
	"strings"

	"fencer/expr"
)

// System is a concurrent system (P, A, X_S, X_L) of the paper: processes
// given as automata over shared and local integer variables, plus the bad
// states. It is what Parse returns and what every analysis consumes. A System
// is immutable once built; WithFences returns a new one.
type System struct {
	File   *File
	Shared []VarDecl  // X_S, arrays expanded to one variable per element ("flag[0]")
	Procs  []*Process // in declaration order, template instances in index order
	Bad    []BadState // from forbidden and mutex declarations
	Sites  []*Site    // fence sites: the program points of the source, by offset
	// Reader is the front end that built the system from a file of another
	// format than .cs (a Memorax .rmm model, a herd .litmus test), or nil
	// for .cs. It writes fences back into that format and reads it again.
	Reader Reader
	// Warnings are what the front end of another format warns about (a C
	// data race, a mapping the user may not expect), positioned in its
	// file (the message alone: the printer adds "warning:"): printed to
	// stderr and carried in reports. Nil for .cs.
	Warnings ErrorList
	// Notes are what the front end of another format did that the user
	// may want to know but need not (a C variable ignored because nothing
	// uses it): shown with -v. Nil for .cs.
	Notes ErrorList
	// Consts are the const settings the program was read with
	// (Options.Consts, -D on the command line); Reparse reads a patched
	// text with them.
	Consts map[string]int64
}

// Reader is a front end for an input format other than .cs. It builds the
// System through the .cs syntax tree and Lower, so that every format has
// the semantics of the .cs language; positions are in its own file.
type Reader interface {
	// Format is the name of the format: "rmm", "litmus".
	Format() string
	// InsertFences returns src, a file of the format, with a fence after
	// each of sites (sites of a System this Reader built from src).
	InsertFences(src []byte, sites []*Site) ([]byte, error)
	// Parse reads a file of the format.
	Parse(filename string, src []byte) (*System, error)
}

// FenceEditor is what a Reader offers, beyond InsertFences, for insert
// --reconsider and --kinds store: reading its format with the fences of
// the file lowered as candidate points, and writing full and store fences
// and removing fences in the file's own syntax. A caller finds it with a
// type assertion on System.Reader.
type FenceEditor interface {
	Reader
	// ParseWith is Parse with lowering options (Options.Reconsider: the
	// full fences of the file become candidate points, Site.Fence).
	ParseWith(filename string, src []byte, opt Options) (*System, error)
	// StoreFences reports whether the format can write a store fence;
	// when it cannot, the reason (for an error message).
	StoreFences() (bool, string)
	// EditFences returns src with a full fence after each site of full, a
	// store fence after each site of store, and the fence statements of
	// remove (Site.Fence sites of a System read with Reconsider) taken
	// out; the rest of the text is unchanged.
	EditFences(src []byte, full, store, remove []*Site) ([]byte, error)
}

// Change is one change that fencer insert makes under an axiomatic model:
// a barrier of kind Kind right after Site, or (Site nil) the access of
// process Proc's edge Edge raised to the annotation Ann (a plain read to
// an acquire, a plain write to a release).
type Change struct {
	Site *Site
	Kind FenceKind
	// Instr is the target's instruction for the barrier ("dmb ishld",
	// "fence r,rw", "membar #StoreLoad"), for formats that write
	// instructions (litmus tests, C's asm fence style).
	Instr string
	Proc  int
	Edge  int
	Pos   Pos // the access's position (Edge.Pos)
	Ann   Ann
}

// ChangeEditor is what a Reader offers for fencer insert under the
// axiomatic models: writing barriers of every kind and order raises in the
// file's own syntax. A caller finds it with a type assertion on
// System.Reader.
type ChangeEditor interface {
	Reader
	// EditChanges returns src with changes made; the rest of the text is
	// unchanged. A change the format cannot express is an error.
	EditChanges(src []byte, changes []Change) ([]byte, error)
}

// Init is the initial value of a variable.
type Init struct {
	Nondet bool  // any integer ("= *"), or one of Lo..Hi when Ranged
	Value  int64 // the value when not Nondet
	// Ranged bounds a nondeterministic initial value to Lo, ..., Hi (a
	// Memorax domain "x = * : [lo:hi]", set by package rmm); Lo <= Hi.
	Ranged bool
	Lo, Hi int64
}

// Values returns the initial values of a nondeterministic variable with a
// range, in increasing order, or nil when there are more than max of them
// or the value is not Ranged and Nondet.
func (i Init) Values(max int) []int64 {
	if !i.Nondet || !i.Ranged || i.Hi < i.Lo || i.Hi-i.Lo >= int64(max) {
		return nil
	}
	out := make([]int64, 0, i.Hi-i.Lo+1)
	for v := i.Lo; v <= i.Hi; v++ {
		out = append(out, v)
	}
	return out
}

// IsTemp reports whether a local is a temporary of the front end
// ("P[0].$1").
func IsTemp(name string) bool {
	i := strings.LastIndexByte(name, '.')
	return i+1 < len(name) && name[i+1] == '$'
}

// VarDecl is one scalar variable. Local names are qualified by their process
// ("P[0].r"); temporaries made by the front end start with '$' after the dot
// ("P[0].$1").
type VarDecl struct {
	Name string
	Init Init
	Pos  Pos
}

// Loc is a control location of one process; locations are 0..NumLocs-1 and
// the initial location is 0.
type Loc int

// Process is the automaton of one process.
type Process struct {
	Name     string // "Main", or "P[1]" for an instance of template P
	Template string // "P" for an instance of a template, "" otherwise
	Pos      Pos    // the process declaration
	Locals   []VarDecl
	NumLocs  int
	Edges    []Edge
	// Out[l] lists the indices in Edges of the edges leaving l.
	Out [][]int
	// Labels maps each source label to its location.
	Labels map[string]Loc
	// ErrLoc is the sink entered when an assert fails, or -1 when the process
	// has no assert. A process at its ErrLoc is a bad state.
	ErrLoc Loc
	// LocPos[l] is the position of the statement about to run at l (NoPos at
	// the end of the body).
	LocPos []Pos
}

// Edge is one transition l --op--> l'.
type Edge struct {
	From, To Loc
	Op       Op
	Pos      Pos // the source of the operation (for a read: the shared variable)
	// Points lists the fence sites (indices in System.Sites) that control
	// passes right after this edge when it falls through to the next
	// statement; a goto passes none (see sites.go).
	Points []int
}

// OpKind is the kind of an operation.
type OpKind uint8

const (
	OpRead   OpKind = iota // Local := value of Shared (buffer or memory)
	OpWrite                // Shared := Val, through the store buffer
	OpFence                // a fence of kind Op.Fence (FenceKind says what it waits for)
	OpAtomic               // wait for empty buffers, then run Body as one step on memory
	OpAssign               // Local := Val
	OpHavoc                // Local := any integer
	OpAssume               // block unless Val holds (Val is a formula)
)

var opKindNames = [...]string{"read", "write", "fence", "atomic", "assign", "havoc", "assume"}

func (k OpKind) String() string {
	if int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return fmt.Sprintf("OpKind(%d)", k)
}

// Op is one operation. Expressions mention only local variables (the front
// end turns every shared read into an OpRead into a local first), except in
// an atomic Body, whose reads are OpRead steps too.
type Op struct {
	Kind   OpKind
	Local  string    // OpRead: destination; OpAssign, OpHavoc: target
	Shared string    // OpRead, OpWrite: the shared variable
	Val    expr.Expr // OpWrite, OpAssign: integer value; OpAssume: formula
	// Fence is the kind of an OpFence (FullFence for every other op).
	// Consumers that cannot honour a kind must refuse it, never treat it
	// as a full fence or as nothing (memmodel.ForBuffers gives the
	// store-buffer models only the kinds they know).
	Fence FenceKind
	// Ann annotates an OpRead (Acquire, AcquirePC) or an OpWrite
	// (Release); an OpAtomic's Ann is the order of its read-modify-write
	// (0: relaxed). The store-buffer models ignore it.
	Ann Ann
	// Addr lists the locals that the address of an OpRead or OpWrite was
	// computed from (an address dependency of a litmus test: the access
	// is to Shared whatever their values, but not before they are known).
	Addr []string
	// Body is the straight-line list of OpRead, OpWrite, OpAssign, OpHavoc and
	// OpAssume steps of an OpAtomic; reads and writes go to memory. An atomic
	// block with branches becomes one OpAtomic edge per path.
	Body []Op
}

func (o Op) String() string {
	switch o.Kind {
	case OpRead:
		return fmt.Sprintf("%s := read%s %s", short(o.Local), annWord(o.Ann), o.Shared)
	case OpWrite:
		return fmt.Sprintf("write%s %s := %s", annWord(o.Ann), o.Shared, shortExpr(o.Val))
	case OpFence:
		return strings.TrimSuffix(o.Fence.Syntax(), ";")
	case OpAtomic:
		parts := make([]string, len(o.Body))
		for i, b := range o.Body {
			parts[i] = b.String()
		}
		return "atomic { " + strings.Join(parts, "; ") + " }"
	case OpAssign:
		return fmt.Sprintf("%s := %s", short(o.Local), shortExpr(o.Val))
	case OpHavoc:
		return fmt.Sprintf("%s := *", short(o.Local))
	case OpAssume:
		return fmt.Sprintf("assume %s", shortExpr(o.Val))
	}
	return o.Kind.String()
}

// annWord is " acquire" and the like, or "" for a plain access.
func annWord(a Ann) string {
	if a == 0 {
		return ""
	}
	return " " + a.String()
}

// short drops the process qualifier of a local name for display.
func short(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func shortExpr(e expr.Expr) string {
	if e == nil {
		return "<nil>"
	}
	return expr.Rename(e, func(n string) expr.Expr {
		if s := short(n); s != n {
			return expr.V(s)
		}
		return nil
	}).String()
}

// BadState is a conjunction: every listed process at its location.
type BadState struct {
	Procs []int // indices into System.Procs
	Locs  []Loc
	Pos   Pos // the forbidden or mutex declaration
}

// ProcIndex returns the index of the process named name, or -1.
func (s *System) ProcIndex(name string) int {
	for i, p := range s.Procs {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// Position expands a position of the system's file.
func (s *System) Position(p Pos) Position { return s.File.Position(p) }

// WithFences returns a copy of s with a full fence at every site in sites
// (WithFenceKinds).
func (s *System) WithFences(sites map[int]bool) *System {
	kinds := make(map[int]FenceKind, len(sites))
	for id, ok := range sites {
		if ok {
			kinds[id] = FullFence
		}
	}
	return s.WithFenceKinds(kinds)
}

// WithFenceKinds returns a copy of s with a fence of kind kinds[id] at
// every site id of kinds: each edge that passes such a point (Edge.Points)
// is followed by a fence step, l --op--> l' becoming l --op--> m --fence-->
// l' with a new location m, and the points of the edge move to the fence
// step. This is what the source with "fence;" (or "fence store;") written
// at those points lowers to: control passes a point exactly when it takes
// one of these edges. An edge that passes points of several kinds gets
// one fence that orders what each of them orders (a full and a store
// fence: a full one). Labels keep their
// locations. s is not changed.
func (s *System) WithFenceKinds(kinds map[int]FenceKind) *System {
	out := *s
	out.Procs = make([]*Process, len(s.Procs))
	for i, p := range s.Procs {
		q := *p
		q.Edges = nil
		q.LocPos = append([]Pos(nil), p.LocPos...)
		for _, e := range p.Edges {
			kind, fenced := e.fenceKind(kinds)
			if !fenced {
				q.Edges = append(q.Edges, e)
				continue
			}
			m := Loc(q.NumLocs)
			q.NumLocs++
			q.LocPos = append(q.LocPos, e.Pos)
			w := e
			w.To, w.Points = m, nil
			q.Edges = append(q.Edges, w, Edge{From: m, To: e.To, Op: Op{Kind: OpFence, Fence: kind}, Pos: e.Pos, Points: e.Points})
		}
		q.Out = make([][]int, q.NumLocs)
		for j, e := range q.Edges {
			q.Out[e.From] = append(q.Out[e.From], j)
		}
		out.Procs[i] = &q
	}
	return &out
}

// fenceKind is the kind of fence that follows e when the sites of kinds are
// fenced: full if one of its points has a full fence, else store if one has
// a store fence; fenced is false when none has a fence.
func (e *Edge) fenceKind(kinds map[int]FenceKind) (kind FenceKind, fenced bool) {
	var o Ordering
	for _, id := range e.Points {
		if k, ok := kinds[id]; ok {
			fenced = true
			o |= k.Orders()
		}
	}
	if !fenced {
		return FullFence, false
	}
	return MaskFence(o), true
}

// Fenced reports whether one of the points e passes is in sites.
func (e *Edge) Fenced(sites map[int]bool) bool {
	for _, id := range e.Points {
		if sites[id] {
			return true
		}
	}
	return false
}

// IsBad reports whether the control locations pcs (one per process) form a
// bad state: a process at its ErrLoc, or a forbidden combination.
func (s *System) IsBad(pcs []Loc) bool {
	for i, p := range s.Procs {
		if p.ErrLoc >= 0 && pcs[i] == p.ErrLoc {
			return true
		}
	}
	for i := range s.Bad {
		if s.Bad[i].Holds(pcs) {
			return true
		}
	}
	return false
}

// Holds reports whether the locations pcs (one per process) are b's.
func (b *BadState) Holds(pcs []Loc) bool {
	for j, pi := range b.Procs {
		if pcs[pi] != b.Locs[j] {
			return false
		}
	}
	return true
}
