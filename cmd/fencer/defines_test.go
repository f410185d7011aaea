package main

import (
	"strings"
	"testing"
)

// TestDefines: -D sets a const of a .cs program for every command that
// reads one, in any position; errors name the setting.
func TestDefines(t *testing.T) {
	out, errs, code := fencer(t, "show", "-D", "N=3", bench("scale/burns.cs"))
	if code != 0 || strings.Count(out, "process P[") != 3 {
		t.Errorf("show -D N=3: exit %d, %d processes\n%s", code, strings.Count(out, "process P["), errs)
	}
	out, _, code = fencer(t, "show", bench("scale/burns.cs"), "--define", "N=4")
	if code != 0 || strings.Count(out, "process P[") != 4 {
		t.Errorf("show --define N=4 after the file: exit %d, %d processes", code, strings.Count(out, "process P["))
	}
	out, _, code = fencer(t, "show", bench("scale/burns.cs"))
	if code != 0 || strings.Count(out, "process P[") != 2 {
		t.Errorf("show without -D: exit %d, %d processes", code, strings.Count(out, "process P["))
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"show", "-D", "K=3", bench("scale/burns.cs")}, 2, "burns.cs:1:1: cannot set K=3: K is not a const of the program (its consts: N)"},
		{[]string{"verify", "-D", "N", bench("scale/burns.cs")}, 2, `-D "N": want NAME=VALUE`},
		{[]string{"verify", "-D", "N=x", bench("scale/burns.cs")}, 2, `-D N=x: the value "x" is not an integer`},
		{[]string{"show", "-D", "N=3", bench("rmm/peterson.rmm")}, 2, "--define (-D) is not an option of rmm input"},
		{[]string{"check", "-D", "N=3", "--timeout", "60s", bench("scale/burns.cs")}, 0, ""},
		{[]string{"insert", "--timeout", "300ms", "-D", "N=4", bench("scale/bakery.cs")}, 3, "time limit reached"},
	} {
		out, errs, code := fencer(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, want %d; stderr %q, want %q\n%s", c.args, code, c.code, errs, c.want, out)
		}
		if c.args[0] == "check" && !strings.Contains(out, "3 passed, 0 failed") {
			t.Errorf("%v: %s", c.args, out)
		}
	}
}
