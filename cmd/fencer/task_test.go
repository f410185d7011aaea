package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The SV-COMP tasks of benchmarks/svcomp (fencer's own programs in the
// idioms of sv-benchmarks) and tasks written here: verify answers true,
// false with a trace, or unknown with its reason, in SV-COMP's terms.

// writeTask writes a task definition for the program src (file name
// prog) into a new directory and returns the .yml's path. extra replaces
// the properties when not empty.
func writeTask(t *testing.T, prog, src, expected, properties string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, prog), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if properties == "" {
		properties = "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: " + expected + "\n"
	}
	yml := "format_version: '2.0'\ninput_files: '" + prog + "'\nproperties:\n" + properties + "options:\n  language: C\n  data_model: LP64\n"
	path := filepath.Join(dir, "task.yml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVerifyTaskVerdicts(t *testing.T) {
	cases := []struct {
		task string
		code int
		rx   string // matched against stdout
	}{
		{"peterson.yml", 0, `^\S+peterson.yml: true \(unreach-call.prp holds under sc`},
		{"peterson_bug.yml", 1, `(?s)^\S+peterson_bug.yml: false \(unreach-call.prp is violated under sc: a call of reach_error is reachable in \S+peterson_bug.c, \d+ steps\)\n.*violated: thr[01]: an assertion in assert\(inside == 1\) fails`},
		{"conventions.yml", 0, `: true \(`},
		{"conventions_bug.yml", 1, `(?s): false \(.*line 36\)`},
		{"sb_tso.yml", 1, `: false \(`},
		{"sb_tso_fenced.yml", 0, `: true \(`},
	}
	for _, c := range cases {
		t.Run(c.task, func(t *testing.T) {
			out, stderr, code := fencer(t, "verify", bench(filepath.Join("svcomp", c.task)))
			if code != c.code || !regexp.MustCompile(c.rx).MatchString(out) {
				t.Errorf("exit %d, want %d; stdout does not match %s:\n%s\n%s", code, c.code, c.rx, out, stderr)
			}
		})
	}
}

// A false verdict under another model than sc, or a task without
// unreach-call, or a program that reaches undefined behaviour or goes
// through an approximation is never answered true or false.
func TestVerifyTaskUnknowns(t *testing.T) {
	head := "#include <pthread.h>\nextern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n"
	cases := []struct {
		name, src, props string
		rx               string
	}{
		{"no unreach-call", head + "int x;\nvoid *t(void *a) { x = 1; return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n",
			"  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\n",
			`unknown \(the task's properties \(no-data-race.prp\) do not include unreach-call.prp`},
		{"out of bounds", head + "int a[2];\nvoid *t(void *arg) { int i = __VERIFIER_nondet_int(); if (i >= 0 && i <= 2) a[i] = 1; return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n",
			"", `unknown \(an array index out of bounds \(or a null pointer dereference\) is reachable: undefined behaviour in C; no call of reach_error is reachable without one\)`},
		{"approximation", head + "int x = 3, y = 5;\nvoid *t(void *arg) { int p = x * y; if (p != 15) reach_error(); return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n",
			"", `unknown \(a call of reach_error is reachable once 1 operation is computed as any integer \(\S+prog.c:5:\d+: \* of two variables\), which may not be a run of the C program\)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTask(t, "prog.c", c.src, "true", c.props)
			js := filepath.Join(t.TempDir(), "r.json")
			out, stderr, code := fencer(t, "verify", "--json", js, path)
			if code != 3 || !regexp.MustCompile(c.rx).MatchString(out) {
				t.Errorf("exit %d, want 3; stdout does not match %s:\n%s\n%s", code, c.rx, out, stderr)
			}
			if b, err := os.ReadFile(js); err != nil || !strings.Contains(string(b), `"verdict": "unknown"`) || strings.Contains(string(b), `"trace"`) {
				t.Errorf("the JSON report of an unknown task:\n%s %v", b, err)
			}
		})
	}
	// Out of bounds on the way to reach_error: false only for a run
	// without it.
	src := head + "int a[2];\nvoid *t(void *arg) { int i = __VERIFIER_nondet_int(); if (i >= 0 && i <= 2) a[i] = 1; if (i == 1) reach_error(); return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n"
	out, stderr, code := fencer(t, "verify", writeTask(t, "prog.c", src, "false", ""))
	if code != 1 || !strings.Contains(out, ": false (") {
		t.Errorf("out of bounds and reach_error: exit %d\n%s\n%s", code, out, stderr)
	}
	// An approximation that a correct verdict does not depend on.
	src = head + "int x = 3, y = 5;\nvoid *t(void *arg) { int p = x * y; if (x != 3) reach_error(); return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n"
	out, stderr, code = fencer(t, "verify", writeTask(t, "prog.c", src, "true", ""))
	if code != 0 || !strings.Contains(out, ": true (") {
		t.Errorf("approximation, true: exit %d\n%s\n%s", code, out, stderr)
	}
}

// A preprocessed .i file (made here by gcc -E from a program of the
// benchmarks): glibc's declarations are read, the unused ones ignored,
// the property of the unpreprocessed program kept.
func TestVerifyTaskPreprocessed(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	for _, c := range []struct{ prog, verdict string }{{"peterson", "true"}, {"peterson_bug", "false"}} {
		dir := t.TempDir()
		i := filepath.Join(dir, c.prog+".i")
		if out, err := exec.Command("gcc", "-E", "-P", bench(filepath.Join("svcomp", c.prog+".c")), "-o", i).CombinedOutput(); err != nil {
			t.Fatalf("gcc -E: %v\n%s", err, out)
		}
		src, _ := os.ReadFile(i)
		path := writeTask(t, c.prog+".i", string(src), c.verdict, "")
		out, stderr, _ := fencer(t, "verify", path)
		if !strings.Contains(out, ": "+c.verdict+" (") {
			t.Errorf("%s.i: want %s\n%s\n%s", c.prog, c.verdict, out, stderr)
		}
	}
}

func TestVerifyTaskErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(bad, []byte("format_version: '2.0'\ninput_files: 'x.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: maybe\noptions:\n  data_model: ILP31\n"), 0o644)
	_, stderr, code := fencer(t, "verify", bad)
	if code != 2 || !strings.Contains(stderr, "bad.yml:5:23: expected_verdict \"maybe\": want true or false") || !strings.Contains(stderr, "bad.yml:7:15: data_model \"ILP31\": want ILP32 or LP64") {
		t.Errorf("malformed task: exit %d\n%s", code, stderr)
	}
	_, stderr, code = fencer(t, "insert", bench("svcomp/peterson.yml"))
	if code != 2 || !strings.Contains(stderr, "peterson.yml: an SV-COMP task definition: fencer verify and fencer check read it; give this command "+bench("svcomp/peterson.c")) {
		t.Errorf("insert TASK.yml: exit %d\n%s", code, stderr)
	}
	_, stderr, code = fencer(t, "verify", "--model", "tso", bench("svcomp/peterson.yml"))
	if code != 2 || !strings.Contains(stderr, "a task is checked under sc") {
		t.Errorf("--model tso: exit %d\n%s", code, stderr)
	}
	// A program outside what fencer reads: refused with its position.
	src := "#include <pthread.h>\nint *p, *q;\nvoid *t(void *a) { p = q; return 0; }\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }\n"
	out, stderr, code := fencer(t, "verify", writeTask(t, "prog.c", src, "true", ""))
	if code != 2 || !strings.Contains(stderr, "prog.c:2:5: unsupported: pointer variable p") || !strings.Contains(out, "unknown (fencer cannot read the task's program") {
		t.Errorf("refused program: exit %d\n%s\n%s", code, out, stderr)
	}
}

// -v notes the unused globals of types fencer does not model.
func TestVerifyTaskNotes(t *testing.T) {
	_, stderr, code := fencer(t, "-v", "verify", bench("svcomp/conventions.yml"))
	if code != 0 || !strings.Contains(stderr, "conventions.c:18:29: note: unused_union is not used: ignored (union unused_union)") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

func TestCheckTasks(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "junit.xml")
	tasks, _ := filepath.Glob(bench("svcomp/*.yml"))
	out, stderr, code := fencer(t, append([]string{"check", "--junit", junit}, tasks...)...)
	if code != 0 || !strings.Contains(out, "ok   "+bench("svcomp/peterson_bug.yml")+":7: expect sc false: got false") || !strings.HasSuffix(out, "6 passed, 0 failed\n") {
		t.Errorf("check: exit %d\n%s\n%s", code, out, stderr)
	}
	x, _ := os.ReadFile(junit)
	if !strings.Contains(string(x), `name="sc false"`) {
		t.Errorf("junit:\n%s", x)
	}
	// A task whose expected verdict is wrong fails.
	src, _ := os.ReadFile(bench("svcomp/peterson.c"))
	out, _, code = fencer(t, "check", writeTask(t, "peterson.c", string(src), "false", ""))
	if code != 1 || !strings.Contains(out, "FAIL") || !strings.Contains(out, "expect sc false: got true") {
		t.Errorf("wrong expectation: exit %d\n%s", code, out)
	}
}

// A preprocessed file of a 32-bit target (data_model ILP32), written here
// as such a file declares pthreads: read with the host's type sizes, its
// own typedefs stand.
func TestVerifyTaskILP32(t *testing.T) {
	src := `typedef unsigned int size_t;
typedef unsigned long int pthread_t;
union pthread_attr_t { char __size[36]; long int __align; };
typedef union pthread_attr_t pthread_attr_t;
typedef union { char __size[24]; long int __align; } pthread_mutex_t;
extern int pthread_create (pthread_t *__restrict __newthread, const pthread_attr_t *__restrict __attr, void *(*__start_routine) (void *), void *__restrict __arg) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1, 3)));
extern int pthread_join (pthread_t __th, void **__thread_return);
extern char *__tzname[2];
extern void abort(void);
void reach_error(){}
int x;
void *thr(void *_) { x = 1; return 0; }
int main() {
  pthread_t t;
  pthread_create(&t, 0, thr, 0);
  pthread_join(t, 0);
  if (!(x == 1)) ERROR: {reach_error();abort();}
  return 0;
}
`
	path := writeTask(t, "prog.i", src, "true", "")
	yml, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(yml), "LP64", "ILP32", 1)), 0o644)
	out, stderr, code := fencer(t, "verify", path)
	if code != 0 || !strings.Contains(out, ": true (") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
}
