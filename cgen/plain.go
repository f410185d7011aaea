package cgen

import (
	"fmt"
	"strings"

	"fencer/cs"
)

// Plain writes sys as a harness-free C11 program (fencer show --c): the
// shared variables as atomic_long (arrays of the source as arrays again),
// one function per process written as its automaton, a "// fencer:
// forbidden" line per bad state (process P[1] is the function P_1), and a
// main that sets the nondeterministic initial values, creates the threads
// and joins them. It compiles with gcc -std=gnu11 -pthread -c; a program
// with "*" values or assume needs __VERIFIER_nondet_long and
// __VERIFIER_assume to be linked.
func Plain(sys *cs.System) (_ []byte, err error) {
	defer catch(&err)
	g := &gen{sys: sys, mode: plainMode, shared: map[string]string{}}
	names := newNamer("t", "i") // main's own
	g.global = names
	arrays, arrayOf := sharedArrays(sys.Shared)
	arrayName := map[string]string{}
	for _, v := range sys.Shared {
		base := arrayOf[v.Name]
		if base == "" {
			g.shared[v.Name] = names.name(v.Name)
			continue
		}
		if _, ok := arrayName[base]; !ok {
			arrayName[base] = names.name(base)
		}
		m := arrayElem.FindStringSubmatch(v.Name)
		g.shared[v.Name] = arrayName[base] + "[" + m[2] + "]"
	}
	for _, p := range sys.Procs {
		g.procFn = append(g.procFn, names.name(p.Name))
	}

	g.printf("// %s as a C11 program (fencer show --c).\n", sys.File.Name)
	g.printf("// Reads and writes of shared memory are relaxed atomic loads and stores (on x86:\n" +
		"// plain MOVs), as fencer analyses them; each function is the automaton of a process.\n")
	g.printf("#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n\n")
	g.printf("extern long __VERIFIER_nondet_long(void);\nextern void __VERIFIER_assume(int);\n" +
		"extern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n\n")
	done := map[string]bool{}
	var nondet []cs.VarDecl
	for _, v := range sys.Shared {
		if v.Init.Nondet {
			nondet = append(nondet, v)
		}
		base := arrayOf[v.Name]
		if base == "" {
			g.printf("atomic_long %s = %d;\n", g.shared[v.Name], v.Init.Value)
			continue
		}
		if done[base] {
			continue
		}
		done[base] = true
		inits := make([]string, len(arrays[base]))
		for k, i := range arrays[base] {
			inits[k] = fmt.Sprint(sys.Shared[i].Init.Value)
		}
		g.printf("atomic_long %s[%d] = {%s};\n", arrayName[base], len(inits), strings.Join(inits, ", "))
	}
	for _, b := range sys.Bad {
		parts := make([]string, len(b.Procs))
		for j, pi := range b.Procs {
			ls := labelsAt(sys.Procs[pi], b.Locs[j])
			if len(ls) == 0 {
				return nil, fmt.Errorf("%s: a bad state at location %d of %s, which has no label", sys.File.Name, b.Locs[j], sys.Procs[pi].Name)
			}
			parts[j] = g.procFn[pi] + "@" + cLabel(ls[0])
		}
		g.printf("// fencer: forbidden %s\n", strings.Join(parts, ", "))
	}
	for i := range sys.Procs {
		g.printf("\n// %s", sys.Procs[i].Name)
		if err := g.newProc(i).function(); err != nil {
			return nil, err
		}
	}
	g.printf("\nint main(void)\n{\n\tpthread_t t[%d];\n", len(sys.Procs))
	for _, v := range nondet {
		g.printf("\tatomic_store_explicit(&%s, __VERIFIER_nondet_long(), memory_order_relaxed);\n", g.shared[v.Name])
	}
	for i := range sys.Procs {
		g.printf("\tpthread_create(&t[%d], NULL, %s, NULL);\n", i, g.procFn[i])
	}
	g.printf("\tfor (int i = 0; i < %d; i++)\n\t\tpthread_join(t[i], NULL);\n\treturn 0;\n}\n", len(sys.Procs))
	return g.buf.Bytes(), nil
}
