package ordview

import (
	"fmt"
	"sort"

	"fencer/cs"
	"fencer/expr"
)

// Class is a set of variables whose values are only compared, copied, set
// to constants and moved by constants (doc.go), with what the view of its
// values needs.
type Class struct {
	// Vars are the shared and local variables of the class, sorted. The
	// buffer slots and last-write values that hold writes to its shared
	// variables belong to it too.
	Vars []string
	// Anchors are the constants the class's values are set to, start at or
	// are compared with, sorted.
	Anchors []int64
	// Up and Down are the largest amounts by which a value of the class is
	// increased (x = y + k, k > 0) and decreased (k < 0), 0 if never.
	Up, Down int64
	// Offset is the largest |e| of a comparison x ⋈ y + e between two
	// variables of the class.
	Offset int64
	// Lo and Hi bound the hull: [min Anchors - Down, max Anchors + Up],
	// where values are kept exactly.
	Lo, Hi int64
	// Cap is the largest gap kept between consecutive values outside the
	// hull: Offset + max(Up, Down) + 1. Any Cap > Offset gives an exact
	// view of the steps that Exact accepts; this one keeps the gaps that
	// one move can close exactly, so that a value moved up to the next one
	// (a ticket lock's owner reaching a waiting ticket) is an exact step.
	Cap int64
}

// Counter reports whether the class moves values by constants, i.e.
// whether its values can leave the hull at all.
func (c *Class) Counter() bool { return c.Up > 0 || c.Down > 0 }

func (c *Class) String() string {
	return fmt.Sprintf("{%v anchors %v up %d down %d offset %d hull [%d, %d] cap %d}", c.Vars, c.Anchors, c.Up, c.Down, c.Offset, c.Lo, c.Hi, c.Cap)
}

// Info is the result of Analyze.
type Info struct {
	// Classes are the classes found, in the order of their first
	// variable.
	Classes []*Class
	// Of maps each shared variable of a class to its index in Classes.
	Of map[string]int
	// Rejected maps each variable that is in no class (for a local: one of
	// whose webs is in none) to the reason of the first use that excluded
	// it or a variable it is linked to.
	Rejected map[string]string
	// local[p][l] maps each local of process p whose definitions reaching
	// location l all lie in one class to that class.
	local [][]map[string]int
	// def[p][e][j] is the class of the local that operation j of edge e of
	// process p defines (j = 0 unless the edge is atomic), or -1.
	def [][][]int
}

// Def returns the class of the value that operation j of edge e of process
// p (j = 0 for an edge that is not atomic, else the index in its body)
// gives the local it defines, if that local's web is in a class.
func (info *Info) Def(p, e, j int) (int, bool) {
	c := info.def[p][e][j]
	return c, c >= 0
}

// Local returns the class of the value that local name of process p holds
// at location l, if the definitions of it that reach l lie in one class.
// (A local is analysed per web of its definitions and uses, so that a
// temporary reused by several statements, or a local reused for several
// purposes, is in a class wherever its current value is.)
func (info *Info) Local(p int, l cs.Loc, name string) (int, bool) {
	c, ok := info.local[p][l][name]
	return c, ok
}

// analyzer collects links and facts per variable, then merges them per
// class.
type analyzer struct {
	// The nodes are shared variables (by name) and definitions of locals
	// ("name#id", id a definition of reach.go).
	parent  map[string]string
	anchors map[string][]int64
	up      map[string]int64
	down    map[string]int64
	offset  map[string]int64
	poison  map[string]string
}

func (a *analyzer) find(x string) string {
	if _, ok := a.parent[x]; !ok {
		a.parent[x] = x
	}
	for a.parent[x] != x {
		a.parent[x] = a.parent[a.parent[x]]
		x = a.parent[x]
	}
	return x
}

func (a *analyzer) union(x, y string) { a.parent[a.find(x)] = a.find(y) }

func (a *analyzer) bad(x, why string) {
	a.find(x)
	if _, ok := a.poison[x]; !ok {
		a.poison[x] = why
	}
}

// term recognises x + k, k + x, x - k, x, k and -k (nested): the variable
// ("" for a constant) and the constant.
func term(e expr.Expr) (v string, k int64, ok bool) {
	switch e := e.(type) {
	case expr.Int:
		return "", e.V, true
	case expr.Var:
		return e.Name, 0, true
	case *expr.App:
		switch {
		case e.Op == expr.OpNeg && len(e.Args) == 1:
			if c, ok := expr.IntValue(e.Args[0]); ok && c > -(1<<40) && c < 1<<40 {
				return "", -c, true
			}
		case (e.Op == expr.OpAdd || e.Op == expr.OpSub) && len(e.Args) == 2:
			v1, k1, ok1 := term(e.Args[0])
			v2, k2, ok2 := term(e.Args[1])
			if !ok1 || !ok2 {
				return "", 0, false
			}
			if e.Op == expr.OpSub {
				if v2 != "" {
					return "", 0, false
				}
				k2 = -k2
			}
			if v1 != "" && v2 != "" {
				return "", 0, false
			}
			s := k1 + k2
			if (k1 > 0 && k2 > 0 && s < 0) || (k1 < 0 && k2 < 0 && s >= 0) || s > 1<<40 || s < -(1<<40) {
				return "", 0, false // keep every bound far from overflow
			}
			return v1 + v2, s, true
		}
	}
	return "", 0, false
}

// Term recognises the forms of a value that a class admits: x + k, k + x,
// x - k, x, k and -k (nested); it returns the variable ("" for a
// constant) and the constant.
func Term(e expr.Expr) (v string, k int64, ok bool) { return term(e) }

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// formula records the comparisons of a guard; anything else poisons its
// variables.
func (a *analyzer) formula(e expr.Expr, use func(string) string) {
	switch f := e.(type) {
	case expr.Bool:
		return
	case *expr.App:
		switch f.Op {
		case expr.OpAnd, expr.OpOr, expr.OpNot, expr.OpImplies:
			for _, g := range f.Args {
				a.formula(g, use)
			}
			return
		case expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe:
			v1, k1, ok1 := term(f.Args[0])
			v2, k2, ok2 := term(f.Args[1])
			if ok1 && ok2 {
				v1, v2 = use(v1), use(v2)
				switch {
				case v1 != "" && v2 != "": // v1 + k1 ⋈ v2 + k2
					a.union(v1, v2)
					if d := abs(k2 - k1); d > a.offset[v1] {
						a.offset[v1] = d
					}
				case v1 != "":
					a.anchors[v1] = append(a.anchors[v1], k2-k1)
				case v2 != "":
					a.anchors[v2] = append(a.anchors[v2], k1-k2)
				}
				return
			}
		}
	}
	a.poisonAll(e, "used in "+e.String(), use)
}

func (a *analyzer) poisonAll(e expr.Expr, why string, use func(string) string) {
	switch e := e.(type) {
	case expr.Var:
		a.bad(use(e.Name), why)
	case *expr.App:
		for _, x := range e.Args {
			a.poisonAll(x, why, use)
		}
	}
}

// assign records target := e (target a node).
func (a *analyzer) assign(target string, e expr.Expr, use func(string) string) {
	a.find(target)
	if ite, ok := e.(*expr.App); ok && ite.Op == expr.OpIte {
		a.formula(ite.Args[0], use)
		a.assign(target, ite.Args[1], use)
		a.assign(target, ite.Args[2], use)
		return
	}
	v, k, ok := term(e)
	if !ok {
		why := fmt.Sprintf("%s := %s", base(target), e)
		a.bad(target, why)
		a.poisonAll(e, why, use)
		return
	}
	v = use(v)
	if v == "" {
		a.anchors[target] = append(a.anchors[target], k)
		return
	}
	a.union(target, v)
	if k > a.up[v] {
		a.up[v] = k
	}
	if -k > a.down[v] {
		a.down[v] = -k
	}
}

// op records one operation; use gives the node of a variable read by it
// (for a local, the web of its reaching definitions), def the node of the
// local it defines.
func (a *analyzer) op(o cs.Op, use func(string) string, def func(string) string) {
	switch o.Kind {
	case cs.OpRead:
		a.union(def(o.Local), o.Shared)
	case cs.OpWrite:
		a.assign(o.Shared, o.Val, use)
	case cs.OpAssign:
		a.assign(def(o.Local), o.Val, use)
	case cs.OpHavoc:
		a.bad(def(o.Local), o.Local+" := *")
	case cs.OpAssume:
		a.formula(o.Val, use)
	}
}

func (a *analyzer) decl(n string, v cs.VarDecl) {
	a.find(n)
	if v.Init.Nondet {
		a.bad(n, v.Name+" starts at *")
		return
	}
	a.anchors[n] = append(a.anchors[n], v.Init.Value)
}

// Analyze finds the classes of sys: every variable (a local: every web of
// its definitions) is linked to those it is copied from, moved from by a
// constant or compared with; a linked group is a class unless one of its
// members is used in any other way (a havoc, a nondeterministic initial
// value, an operand of anything but x + k or a comparison x + k ⋈ y + l).
func Analyze(sys *cs.System) *Info {
	a := &analyzer{parent: map[string]string{}, anchors: map[string][]int64{}, up: map[string]int64{}, down: map[string]int64{}, offset: map[string]int64{}, poison: map[string]string{}}
	for _, v := range sys.Shared {
		a.decl(v.Name, v)
	}
	locals := map[string]bool{}
	reach := make([][]defs, len(sys.Procs))
	for pi, p := range sys.Procs {
		ids := procDefs(p)
		reach[pi] = reaching(p, ids)
		for i, v := range p.Locals {
			locals[v.Name] = true
			a.decl(node(v.Name, i), v)
		}
		for e, edge := range p.Edges {
			walk(edge, ids[e], reach[pi][edge.From].clone(), func(o cs.Op, before defs, id int) {
				use := func(x string) string {
					if !locals[x] || len(before[x]) == 0 {
						return x
					}
					n := node(x, before[x][0])
					for _, d := range before[x][1:] {
						a.union(n, node(x, d))
					}
					return n
				}
				def := func(x string) string { return node(x, id) }
				a.op(o, use, def)
			})
		}
	}
	members := map[string][]string{}
	for x := range a.parent {
		r := a.find(x)
		members[r] = append(members[r], x)
	}
	info := &Info{Of: map[string]int{}, Rejected: map[string]string{}}
	var roots []string
	for r, vs := range members {
		sort.Strings(vs)
		why := ""
		for _, x := range vs {
			if w, ok := a.poison[x]; ok {
				why = w
				break
			}
		}
		if why == "" && !anyAnchor(a, vs) {
			why = "no initial value"
		}
		if why != "" {
			for _, x := range vs {
				if _, ok := info.Rejected[base(x)]; !ok {
					info.Rejected[base(x)] = why
				}
			}
			continue
		}
		roots = append(roots, r)
	}
	sort.Slice(roots, func(i, j int) bool { return members[roots[i]][0] < members[roots[j]][0] })
	classOfNode := map[string]int{}
	for _, r := range roots {
		c := &Class{}
		set := map[int64]bool{}
		names := map[string]bool{}
		for _, x := range members[r] {
			for _, k := range a.anchors[x] {
				set[k] = true
			}
			c.Up = max(c.Up, a.up[x])
			c.Down = max(c.Down, a.down[x])
			c.Offset = max(c.Offset, a.offset[x])
			classOfNode[x] = len(info.Classes)
			if b := base(x); !names[b] {
				names[b] = true
				c.Vars = append(c.Vars, b)
			}
			if !locals[x] && base(x) == x {
				info.Of[x] = len(info.Classes)
			}
		}
		sort.Strings(c.Vars)
		for k := range set {
			c.Anchors = append(c.Anchors, k)
		}
		sort.Slice(c.Anchors, func(i, j int) bool { return c.Anchors[i] < c.Anchors[j] })
		c.Lo = c.Anchors[0] - c.Down
		c.Hi = c.Anchors[len(c.Anchors)-1] + c.Up
		c.Cap = c.Offset + max(c.Up, c.Down) + 1
		info.Classes = append(info.Classes, c)
	}
	info.local = make([][]map[string]int, len(sys.Procs))
	info.def = make([][][]int, len(sys.Procs))
	for pi, p := range sys.Procs {
		ids := procDefs(p)
		info.def[pi] = make([][]int, len(p.Edges))
		for e, edge := range p.Edges {
			info.def[pi][e] = make([]int, len(ids[e]))
			ops := []cs.Op{edge.Op}
			if edge.Op.Kind == cs.OpAtomic {
				ops = edge.Op.Body
			}
			for j, id := range ids[e] {
				info.def[pi][e][j] = -1
				if id >= 0 {
					x, _ := defining(ops[j])
					if c, ok := classOfNode[node(x, id)]; ok {
						info.def[pi][e][j] = c
					}
				}
			}
		}
		info.local[pi] = make([]map[string]int, p.NumLocs)
		for l := range info.local[pi] {
			m := map[string]int{}
			for x, ds := range reach[pi][l] {
				c, ok := classOfNode[node(x, ds[0])]
				for _, d := range ds[1:] {
					if c2, ok2 := classOfNode[node(x, d)]; !ok2 || c2 != c {
						ok = false
					}
				}
				if ok {
					m[x] = c
				}
			}
			info.local[pi][l] = m
		}
	}
	return info
}

func anyAnchor(a *analyzer, vs []string) bool {
	for _, x := range vs {
		if len(a.anchors[x]) > 0 {
			return true
		}
	}
	return false
}
