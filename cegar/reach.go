package cegar

import (
	"context"
	"fmt"

	"fencer/kabs"
	"fencer/predabs"
)

// rnode is one combined abstract state (ctl, cube) of the BFS, with the step
// that reached it.
type rnode struct {
	ctl    *kabs.Ctl
	cube   predabs.Cube
	parent int32
	depth  int32
	step   kabs.AStep
	t      *kabs.Trans
}

// path is an abstract counterexample: its steps and their transitions.
type path struct {
	steps []kabs.AStep
	ts    []*kabs.Trans
}

// errLimit marks a limit that makes the verdict unknown.
type errLimit struct{ reason string }

func (e *errLimit) Error() string { return e.reason }

// reach explores the combined abstraction breadth first and returns a
// shortest path to a bad state, or nil when none is reachable.
func (e *engine) reach(ctx context.Context, abs *kabs.Abs) (*path, error) {
	rel := newRelevance(abs.Sys)
	rel.update(e.preds)
	cube0, ok, err := e.ab.Alpha(abs.InitFormula())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	rel.forget(cube0, abs.Init())
	nodes := []rnode{{ctl: abs.Init(), cube: cube0, parent: -1}}
	if abs.Sys.IsBad(nodes[0].ctl.PC) {
		return &path{}, nil
	}
	visited := map[string][]predabs.Cube{nodes[0].ctl.Key(): {cube0}}
	type mask struct {
		keep []bool
		key  string
	}
	masks := map[string]mask{} // relevance per control state
	for head := 0; head < len(nodes); head++ {
		if head&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, &errLimit{interruptReason(err)}
			}
			if e.progress != nil {
				e.progress(e.stats.States + head)
			}
		}
		n := nodes[head]
		for _, s := range abs.Successors(n.ctl) {
			key := s.Ctl.Key()
			m, ok := masks[key]
			if !ok {
				m.keep, m.key = rel.mask(s.Ctl)
				masks[key] = m
			}
			cube, ok, err := e.ab.Post(n.cube, s.T, m.keep, m.key)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if subsumed(visited[key], cube) {
				continue
			}
			visited[key] = insertCube(visited[key], cube)
			if len(nodes) >= e.opt.MaxStates {
				e.stats.States += len(nodes)
				return nil, &errLimit{fmt.Sprintf("state limit reached (%d abstract states, --max-states)", e.opt.MaxStates)}
			}
			nodes = append(nodes, rnode{ctl: s.Ctl, cube: cube, parent: int32(head), step: s.Step, t: s.T, depth: n.depth + 1})
			if abs.Sys.IsBad(s.Ctl.PC) {
				e.stats.States += len(nodes)
				e.logf("exploration: %d abstract states (k=%d, %d predicates), counterexample of %d steps", len(nodes), e.k, e.preds.Len(), nodes[len(nodes)-1].depth)
				return pathTo(nodes, int32(len(nodes)-1)), nil
			}
		}
	}
	e.stats.States += len(nodes)
	e.logf("exploration: %d abstract states (k=%d, %d predicates), no bad state", len(nodes), e.k, e.preds.Len())
	return nil, nil
}

func interruptReason(err error) string {
	if err == context.DeadlineExceeded {
		return "time limit reached (--timeout)"
	}
	return "interrupted"
}

// subsumed reports whether some stored cube covers c.
func subsumed(stored []predabs.Cube, c predabs.Cube) bool {
	for _, d := range stored {
		if c.Implies(d) {
			return true
		}
	}
	return false
}

// insertCube adds c and drops the stored cubes it covers.
func insertCube(stored []predabs.Cube, c predabs.Cube) []predabs.Cube {
	out := stored[:0]
	for _, d := range stored {
		if !d.Implies(c) {
			out = append(out, d)
		}
	}
	return append(out, c)
}

func pathTo(nodes []rnode, i int32) *path {
	p := &path{}
	for nodes[i].parent >= 0 {
		p.steps = append(p.steps, nodes[i].step)
		p.ts = append(p.ts, nodes[i].t)
		i = nodes[i].parent
	}
	for l, r := 0, len(p.steps)-1; l < r; l, r = l+1, r-1 {
		p.steps[l], p.steps[r] = p.steps[r], p.steps[l]
		p.ts[l], p.ts[r] = p.ts[r], p.ts[l]
	}
	return p
}
