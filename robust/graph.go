package robust

import (
	"fencer/cs"
	"fencer/memmodel"
	"sort"
)

// Access is one shared-memory access of the lowered program: an OpRead or
// OpWrite edge, or a read or write inside the body of an OpAtomic edge.
type Access struct {
	ID     int // index in Graph.Acc
	Proc   int // index in System.Procs
	Edge   int // index in Procs[Proc].Edges
	Micro  int // index in the atomic body, or -1 for an OpRead/OpWrite edge
	Var    string
	Write  bool
	Atomic bool   // inside an atomic step: goes straight to memory
	Ann    cs.Ann // the annotation of the op; of an atomic step's access, what it orders under the model (memmodel.RMWAnn)
	// StepAnn is the annotation of an atomic step's access's step
	// (AtomicAnn).
	StepAnn cs.Ann
	Pos     cs.Pos // the statement (for a read: the shared variable)
	Points  []int  // the fence sites passed right after a buffered write
}

// Graph is the static conflict graph of a system: its accesses, program
// order as reachability in each process's automaton, and the conflicts.
type Graph struct {
	Sys *cs.System
	Acc []*Access
	// byEdge[p][e] lists the accesses of edge e of process p in body order.
	byEdge [][][]int
	// conf[a] lists the accesses that conflict with a: same variable, another
	// process, at least one of the two a write.
	conf [][]int
	// reach[p][l] is the set of locations of process p reachable from l
	// (l included), computed on demand.
	reach [][][]bool
	// coarse[p] is set for a process too large for reach (more than
	// MaxReachCells locations × accesses): every access of it is taken to
	// be in program order with every other, both ways (sound, coarser).
	coarse []bool
	// model is the model of Analyze; under one with Axioms, FreePath and
	// its variants cut paths by the model's preserved order (weak.go).
	// Nil (NewGraph alone) or a store-buffer model: the buffer reading.
	model memmodel.Model
	// keeps[c][d] is model.Keeps on the access classes c and d (weak.go).
	keeps *[numClasses][numClasses]bool
}

// MaxReachCells bounds the memory of program-order reachability per
// process (locations × accesses).
var MaxReachCells = 50_000_000

// NewGraph builds the conflict graph of sys.
func NewGraph(sys *cs.System) *Graph {
	g := &Graph{Sys: sys}
	g.byEdge = make([][][]int, len(sys.Procs))
	g.reach = make([][][]bool, len(sys.Procs))
	byVar := map[string][]int{}
	add := func(a *Access) {
		a.ID = len(g.Acc)
		g.Acc = append(g.Acc, a)
		g.byEdge[a.Proc][a.Edge] = append(g.byEdge[a.Proc][a.Edge], a.ID)
		byVar[a.Var] = append(byVar[a.Var], a.ID)
	}
	for p, proc := range sys.Procs {
		g.byEdge[p] = make([][]int, len(proc.Edges))
		g.reach[p] = make([][]bool, proc.NumLocs)
		for ei, e := range proc.Edges {
			switch e.Op.Kind {
			case cs.OpRead:
				add(&Access{Proc: p, Edge: ei, Micro: -1, Var: e.Op.Shared, Ann: e.Op.Ann, Pos: e.Pos})
			case cs.OpWrite:
				add(&Access{Proc: p, Edge: ei, Micro: -1, Var: e.Op.Shared, Write: true, Ann: e.Op.Ann, Pos: e.Pos, Points: e.Points})
			case cs.OpAtomic:
				ann := AtomicAnn(e.Op)
				for mi, b := range e.Op.Body {
					switch b.Kind {
					case cs.OpRead:
						add(&Access{Proc: p, Edge: ei, Micro: mi, Var: b.Shared, Atomic: true, Ann: ann, StepAnn: ann, Pos: e.Pos})
					case cs.OpWrite:
						add(&Access{Proc: p, Edge: ei, Micro: mi, Var: b.Shared, Write: true, Atomic: true, Ann: ann, StepAnn: ann, Pos: e.Pos})
					}
				}
			}
		}
	}
	g.coarse = make([]bool, len(sys.Procs))
	perProc := make([]int, len(sys.Procs))
	for _, a := range g.Acc {
		perProc[a.Proc]++
	}
	for p, proc := range sys.Procs {
		g.coarse[p] = proc.NumLocs*perProc[p] > MaxReachCells
	}
	g.conf = make([][]int, len(g.Acc))
	for _, ids := range byVar {
		for _, i := range ids {
			for _, j := range ids {
				a, b := g.Acc[i], g.Acc[j]
				if a.Proc != b.Proc && (a.Write || b.Write) {
					g.conf[i] = append(g.conf[i], j)
				}
			}
		}
	}
	return g
}

// reachable returns the locations of process p reachable from l.
func (g *Graph) reachable(p int, l cs.Loc) []bool {
	if r := g.reach[p][l]; r != nil {
		return r
	}
	proc := g.Sys.Procs[p]
	seen := make([]bool, proc.NumLocs)
	stack := []cs.Loc{l}
	seen[l] = true
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ei := range proc.Out[x] {
			if to := proc.Edges[ei].To; !seen[to] {
				seen[to] = true
				stack = append(stack, to)
			}
		}
	}
	g.reach[p][l] = seen
	return seen
}

// PoBefore reports whether a visit of a critical cycle to the process can
// enter at access a and leave at access b: both in one process, and either
// b's edge starts at a location reachable from the end of a's edge (an
// instance of b follows an instance of a in program order; through loops b
// may be a itself), or a and b belong to the same atomic step, in either
// order: the step is one indivisible event of the run, which a cycle may
// enter through one of its accesses and leave through another.
func (g *Graph) PoBefore(a, b int) bool {
	x, y := g.Acc[a], g.Acc[b]
	if x.Proc != y.Proc {
		return false
	}
	if x.Edge == y.Edge && x.Micro >= 0 || g.coarse[x.Proc] {
		return true
	}
	proc := g.Sys.Procs[x.Proc]
	return g.reachable(x.Proc, proc.Edges[x.Edge].To)[proc.Edges[y.Edge].From]
}

// RelaxedKind reports whether the model may reorder a before b when they
// are in program order and no fence lies between: under TSO a buffered
// write before a read of another variable outside atomic steps; under PSO
// also a buffered write before a buffered write of another variable. Under
// SC nothing is relaxed. Under a model with Axioms (Arm, RISC-V, RMO) every
// pair of accesses of one process to different variables whose order the
// model does not keep (memmodel.Model.Keeps on kinds and annotations; an
// atomic step's accesses carry the step's annotation): reads start relaxed
// pairs too. Two accesses of one atomic step edge are then related only
// across a loop (two instances of the step), which FreePath checks.
func RelaxedKind(m memmodel.Model, a, b *Access) bool {
	if m.Axioms() != nil {
		return a.Proc == b.Proc && a.Var != b.Var && !m.Keeps(a.ModelAccess(), b.ModelAccess())
	}
	if !a.Write || a.Atomic || b.Atomic || a.Var == b.Var || a.Proc != b.Proc {
		return false
	}
	if b.Write {
		return m.Relaxes(cs.OpWrite)
	}
	return m.Relaxes(cs.OpRead)
}

// Path is a fence-free path in the automaton of one process: the edges
// from the end of a relaxed pair's first access to the start of its second.
type Path []int

// FreePath returns a shortest path of process a.Proc from the end of a's
// edge to the start of b's edge that passes no fence that orders the pair,
// no atomic step and no write whose site is in fenced (a fence there would
// lie on the path), or ok=false when there is none or a's own site is
// fenced. The path is the list of edge indices. A full fence orders every
// pair; a store fence (`fence store;`) orders a pair whose second access is
// a write (PSO's write→write reordering) and not a write→read pair. Under
// a model with Axioms (the graph of Analyze) a path is free when no chain
// of preserved order and fences that keep their pairs of kinds leads from
// a to b along it (weak.go, FreePathFences); the fences of fenced are full
// ones.
func (g *Graph) FreePath(a, b int, fenced map[int]bool) (Path, bool) {
	return g.FreePathKinds(a, b, fenced, nil)
}

// FreePathKinds is FreePath with full fences at the sites in full and store
// fences at the sites in store installed.
func (g *Graph) FreePathKinds(a, b int, full, store map[int]bool) (Path, bool) {
	if g.weak() {
		return g.weakFreePath(a, b, fullStoreKinds(full, store))
	}
	x, y := g.Acc[a], g.Acc[b]
	if x.Proc != y.Proc || x.Atomic || y.Atomic {
		return nil, false
	}
	for _, id := range x.Points {
		if full[id] || y.Write && store[id] {
			return nil, false
		}
	}
	proc := g.Sys.Procs[x.Proc]
	src, dst := proc.Edges[x.Edge].To, proc.Edges[y.Edge].From
	parent := make([]int, proc.NumLocs) // edge index into the location, -2 unseen, -1 source
	for i := range parent {
		parent[i] = -2
	}
	parent[src] = -1
	queue := []cs.Loc{src}
	for len(queue) > 0 && parent[dst] == -2 {
		l := queue[0]
		queue = queue[1:]
		for _, ei := range proc.Out[l] {
			e := proc.Edges[ei]
			if parent[e.To] != -2 || blocks(e, y.Write, full, store) {
				continue
			}
			parent[e.To] = ei
			queue = append(queue, e.To)
		}
	}
	if parent[dst] == -2 {
		return nil, false
	}
	var path Path
	for l := dst; parent[l] >= 0; l = proc.Edges[parent[l]].From {
		path = append(path, parent[l])
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, true
}

// blocks reports whether passing edge e orders a buffered write before a
// later access (a write when toWrite): a full fence, an atomic step, or a
// write followed by an installed full fence drain the buffers; a store
// fence, or a write followed by an installed store fence, keeps the
// buffered writes before every later write (PSO's write→write order) but
// lets later reads pass them. A fence of another kind in the program is
// read as memmodel.ForBuffers reads it: one with store→load order is a
// full fence, else one with store→store order a store fence, else nothing.
func blocks(e cs.Edge, toWrite bool, full, store map[int]bool) bool {
	switch e.Op.Kind {
	case cs.OpFence:
		k, ok := memmodel.BufferFence(e.Op.Fence)
		return ok && (k == cs.FullFence || toWrite)
	case cs.OpAtomic:
		return true
	case cs.OpWrite:
		return e.Fenced(full) || toWrite && e.Fenced(store)
	}
	return false
}

// pathSites returns the fence sites that cut the relaxed pair (a, b) along
// path: the points passed after a and after every edge of the path, most
// preferred first (cs.Preferred), so that the search meets the preferred
// minimum set first.
func (g *Graph) pathSites(a int, path Path) []int {
	var out []int
	seen := map[int]bool{}
	add := func(ids []int) {
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	proc := g.Sys.Procs[g.Acc[a].Proc]
	// The points of a's edge: those of Access.Points for a buffered write,
	// and those after a read or an atomic step, which start relaxed pairs
	// under the models with Axioms.
	add(proc.Edges[g.Acc[a].Edge].Points)
	for _, ei := range path {
		add(proc.Edges[ei].Points)
	}
	if g.Sys.Reader != nil {
		// Another input format: its reader writes fences only right after
		// a write (and keeps or removes the fences of its source, read with
		// cs.Options.Reconsider).
		var after []int
		for _, id := range out {
			if s := g.Sys.Sites[id]; s.AfterAWrite() || s.Fence {
				after = append(after, id)
			}
		}
		out = after
	}
	sort.SliceStable(out, func(i, j int) bool { return cs.Preferred(g.Sys.Sites[out[i]], g.Sys.Sites[out[j]]) })
	return out
}

// AtomicAnn is the order of an atomic step's accesses: its annotation,
// without the release when the step writes nothing (a compare and swap
// that fails is a read: on Arm a failed CASL releases nothing).
func AtomicAnn(op cs.Op) cs.Ann {
	for _, b := range op.Body {
		if b.Kind == cs.OpWrite {
			return op.Ann
		}
	}
	return op.Ann &^ cs.Release
}
