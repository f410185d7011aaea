package ordview

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"fencer/cs"
)

func parse(t *testing.T, name string, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// parseFile parses the .cs file at path, with ":N=3" at its end to set a
// const (-D N=3 on the command line).
func parseFile(t *testing.T, path string) *cs.System {
	t.Helper()
	var consts map[string]int64
	if file, set, ok := strings.Cut(path, ":"); ok {
		name, val, _ := strings.Cut(set, "=")
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		path, consts = file, map[string]int64{name: n}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := cs.ParseWith(path, src, cs.Options{Consts: consts})
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func has(c *Class, v string) bool {
	for _, x := range c.Vars {
		if x == v {
			return true
		}
	}
	return false
}

// sameClass returns the class whose Vars has all of vs (a local may be in
// several classes, one per web of its definitions), failing the test if
// there is none.
func sameClass(t *testing.T, info *Info, vs ...string) *Class {
	t.Helper()
	for _, c := range info.Classes {
		all := true
		for _, v := range vs {
			all = all && has(c, v)
		}
		if all {
			return c
		}
	}
	t.Fatalf("no class has all of %v (%s); classes: %v", vs, info.Rejected[vs[0]], info.Classes)
	return nil
}

func TestBakeryTickets(t *testing.T) {
	for _, f := range []string{"../benchmarks/bakery.cs", "../benchmarks/scale/bakery.cs:N=3"} {
		info := Analyze(parseFile(t, f))
		var vs []string
		for _, v := range []string{"number[0]", "number[1]", "P[0].t", "P[0].n", "P[1].t", "P[1].n"} {
			vs = append(vs, v)
		}
		if strings.HasSuffix(f, ":N=3") {
			vs = append(vs, "number[2]", "P[2].t", "P[2].n")
		}
		c := sameClass(t, info, vs...)
		if !c.Counter() || c.Up != 1 || c.Down != 0 || c.Offset != 0 || c.Cap != 2 || len(c.Anchors) != 1 || c.Anchors[0] != 0 {
			t.Errorf("%s: tickets %v", f, c)
		}
		named := 0
		for _, v := range c.Vars {
			if !strings.Contains(v, "$") {
				named++
			}
		}
		if named != len(vs) {
			t.Errorf("%s: tickets %v", f, c)
		}
		for _, v := range []string{"choosing[0]", "choosing[1]"} {
			if ch := sameClass(t, info, v); ch == c || ch.Counter() {
				t.Errorf("%s: %s in %v", f, v, ch)
			}
		}
		for _, c := range info.Classes {
			if c.Counter() {
				t.Logf("%s: counter class %v", f, c)
			}
		}
	}
}

func TestTicketLock(t *testing.T) {
	for _, f := range []string{"../benchmarks/ticket_lock.cs", "../benchmarks/scale/ticket.cs:N=3"} {
		info := Analyze(parseFile(t, f))
		c := sameClass(t, info, "next", "owner", "P[0].t", "P[1].t")
		if !c.Counter() || c.Up != 1 || c.Offset != 0 || c.Cap != 2 || c.Lo != 0 || c.Hi != 1 {
			t.Errorf("%s: %v", f, c)
		}
		for _, c := range info.Classes {
			if c.Counter() {
				t.Logf("%s: counter class %v", f, c)
			}
		}
	}
}

func TestRejected(t *testing.T) {
	for _, c := range []struct{ name, src, v string }{
		{"product", "shared x; process P { local r; r = x; x = r * 2; }", "x"},
		{"sum", "shared x, y; process P { local r, s; r = x; s = y; x = r + s; }", "y"},
		{"havoc", "shared x; process P { local r; r = *; x = r + 1; }", "x"},
		{"nondet", "shared x = *; process P { local r; r = x; assume(r < 3); }", "x"},
		{"two-sided", "shared x, y; process P { local r, s; r = x; s = y; assume(r + s < 3); }", "x"},
		{"scaled", "shared x; process P { local r; r = x; assume(2 * r < 3); }", "x"},
	} {
		info := Analyze(parse(t, c.name, c.src))
		if _, ok := info.Of[c.v]; ok {
			t.Errorf("%s: %s is in class %v", c.name, c.v, info.Classes[info.Of[c.v]])
		} else if info.Rejected[c.v] == "" {
			t.Errorf("%s: %s rejected without a reason", c.name, c.v)
		}
	}
	// Allowed: copies, moves by constants, comparisons with offsets and
	// constants, comparisons used as values.
	info := Analyze(parse(t, "ok", `shared x, y; process P { local r, s, b; r = x; s = y - 2; b = r < s + 3; if (r == 5) { x = s; } y = 7; }`))
	c := sameClass(t, info, "x", "y", "P.r", "P.s")
	if c.Down != 2 || c.Up != 0 || c.Offset != 3 || c.Cap != 6 || c.Lo != -2 || c.Hi != 7 {
		t.Errorf("%v", c)
	}
	if has(c, "P.b") {
		t.Errorf("b (0 or 1 from a comparison) joined the class: %v", c)
	}
}
