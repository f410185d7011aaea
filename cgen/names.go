package cgen

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"fencer/cs"
)

// cKeywords are the words a C name must not be: C11's keywords and the
// names the generated programs use from their headers.
var cKeywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct switch
		typedef union unsigned void volatile while _Bool _Complex _Imaginary _Alignas _Alignof _Atomic
		_Generic _Noreturn _Static_assert _Thread_local bool true false main assert exit abort printf
		atomic_long atomic_load_explicit atomic_store_explicit atomic_thread_fence atomic_exchange
		atomic_fetch_add atomic_compare_exchange_strong memory_order_relaxed memory_order_seq_cst
		memory_order_release pthread_t pthread_create pthread_join NULL errno time rand arg`) {
		cKeywords[w] = true
	}
}

var notIdent = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// namer hands out C identifiers that are unique in one scope: it mangles a
// name of the model into a C identifier and adds a suffix on a clash.
type namer struct{ used map[string]bool }

func newNamer(reserved ...string) *namer {
	n := &namer{used: map[string]bool{}}
	for _, r := range reserved {
		n.used[r] = true
	}
	return n
}

// name returns a fresh C identifier for the model's name s: "P[0]" becomes
// "P_0", "P[0].$1" (a temporary) "tmp1", a C keyword gets a trailing "_".
func (n *namer) name(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	if strings.HasPrefix(s, "$") {
		s = "tmp" + s[1:]
	}
	s = strings.Trim(notIdent.ReplaceAllString(s, "_"), "_")
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "v" + s
	}
	if cKeywords[s] || strings.HasPrefix(s, "__") {
		s += "_"
	}
	base := s
	for k := 2; n.used[s]; k++ {
		s = base + "_" + strconv.Itoa(k)
	}
	n.used[s] = true
	return s
}

// arrayElem splits "flag[3]" into "flag" and 3.
var arrayElem = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\[(\d+)\]$`)

// sharedArrays groups the shared variables that are the elements 0..n-1 of
// one array, in order ("flag[0]", "flag[1]"), for the plain program, which
// declares them as C arrays again. It returns the arrays by base name and,
// for every variable, its array (or "" for a scalar).
func sharedArrays(vars []cs.VarDecl) (map[string][]int, map[string]string) {
	elems := map[string][]int{} // base -> indices in vars, by element
	for i, v := range vars {
		m := arrayElem.FindStringSubmatch(v.Name)
		if m == nil {
			continue
		}
		k, err := strconv.Atoi(m[2])
		if err != nil || k != len(elems[m[1]]) {
			elems[m[1]] = append(elems[m[1]], -1) // not 0, 1, 2, ... in order
			continue
		}
		elems[m[1]] = append(elems[m[1]], i)
	}
	arrays := map[string][]int{}
	of := map[string]string{}
	names := map[string]bool{}
	for _, v := range vars {
		names[v.Name] = true
	}
	for base, idx := range elems {
		ok := !names[base]
		for _, i := range idx {
			ok = ok && i >= 0
		}
		if !ok {
			continue
		}
		arrays[base] = idx
		for _, i := range idx {
			of[vars[i].Name] = base
		}
	}
	return arrays, of
}

// label returns the name of a source label of process p at location l, or
// "" when l has none (several: joined by ", ").
func labelsAt(p *cs.Process, l cs.Loc) []string {
	var out []string
	for name, loc := range p.Labels {
		if loc == l {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// badName names a forbidden combination as the .cs syntax writes it:
// "P[0]@cs, P[1]@cs".
func badName(sys *cs.System, b cs.BadState) string {
	parts := make([]string, len(b.Procs))
	for j, pi := range b.Procs {
		p := sys.Procs[pi]
		where := fmt.Sprintf("location %d", b.Locs[j])
		if ls := labelsAt(p, b.Locs[j]); len(ls) > 0 {
			where = ls[0]
		}
		parts[j] = p.Name + "@" + where
	}
	return strings.Join(parts, ", ")
}
