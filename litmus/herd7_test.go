package litmus

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"fencer/cs"
)

// The expectations of benchmarks/litmus/arm and benchmarks/litmus/riscv
// are herd7's answers. TestHerd7 establishes them again when the
// environment names herd7 (HERD7=/path/to/herd7, the wrapper that
// tools/herd/build.sh writes, which passes herd's cat library):
//
//   - "sc safe" / "sc bug": herd7 -model sc.cat says the outcome is
//     never / sometimes reached;
//   - "arm safe" (aarch64.cat), "riscv safe" (riscv.cat): never reached;
//     "bug": reached under SC already;
//   - "fences=N": reached under the model and not under SC, and N is the
//     fewest changes after which herd7 says never: a full barrier after an
//     instruction that is not its thread's last, and (arm, where fencer
//     offers them) an LDR raised to LDAR or an STR to STLR. Each change
//     set is written by EditChanges, so herd7 also reads what fencer
//     writes back.
//
// With HERD7_PRINT=1 it prints the lines instead of comparing them.
func TestHerd7(t *testing.T) {
	herd := os.Getenv("HERD7")
	if herd == "" {
		t.Skip("HERD7 is not set (the herd7 wrapper of tools/herd/build.sh)")
	}
	print := os.Getenv("HERD7_PRINT") != ""
	dir := t.TempDir()
	for _, sub := range []string{"arm", "riscv"} {
		files, _ := filepath.Glob("../benchmarks/litmus/" + sub + "/*.litmus")
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			h := &herdRun{t: t, herd: herd, dir: dir, name: filepath.Base(f)}
			want := map[string]string{}
			for _, m := range weakExpectRE.FindAllSubmatch(src, -1) {
				want[string(m[1])] = string(m[2])
			}
			cat := map[string]string{"arm": "aarch64.cat", "riscv": "riscv.cat"}[sub]
			scReached := h.reached(src, "sc.cat")
			mReached := h.reached(src, cat)
			got := map[string]string{"sc": "safe"}
			if scReached {
				got["sc"] = "bug"
			}
			switch {
			case scReached:
				got[sub] = "bug"
			case !mReached:
				got[sub] = "safe"
			default:
				got[sub] = h.minChanges(f, src, cat, sub == "arm")
			}
			if print {
				fmt.Printf("%s\n(* fencer: expect sc %s *)\n(* fencer: expect %s %s *)\n", f, got["sc"], sub, got[sub])
				continue
			}
			for _, m := range []string{"sc", sub} {
				if want[m] != got[m] {
					t.Errorf("%s: expect %s %s, herd7 says %s", f, m, want[m], got[m])
				}
			}
		}
	}
}

var weakExpectRE = regexp.MustCompile(`\(\* fencer: expect (sc|arm|riscv) (\S+) \*\)`)

type herdRun struct {
	t              *testing.T
	herd, dir      string
	name           string
	n              int
	observationsRE *regexp.Regexp
}

var observationRE = regexp.MustCompile(`(?m)^Observation \S+ (Never|Sometimes|Always)`)

// reached runs herd7 with model cat on src and reports whether the
// outcome (exists P: P; forall P: not P) is reached.
func (h *herdRun) reached(src []byte, cat string) bool {
	h.n++
	path := filepath.Join(h.dir, fmt.Sprintf("%d-%s", h.n, h.name))
	if err := os.WriteFile(path, src, 0o644); err != nil {
		h.t.Fatal(err)
	}
	out, err := exec.Command(h.herd, "-model", cat, path).CombinedOutput()
	m := observationRE.FindSubmatch(out)
	if err != nil || m == nil {
		h.t.Fatalf("herd7 -model %s %s: %v\n%s\n%s", cat, h.name, err, out, src)
	}
	if bytes.Contains(src, []byte("\nforall")) {
		return string(m[1]) != "Always"
	}
	return string(m[1]) != "Never"
}

// minChanges returns "fences=N" for the fewest changes after which herd7
// says the outcome is never reached (up to 4).
func (h *herdRun) minChanges(f string, src []byte, cat string, raises bool) string {
	sys, err := Parse(f, src)
	if err != nil {
		h.t.Fatalf("%v", err)
	}
	_, tt, err := read(cs.NewFile(f, src))
	if err != nil {
		h.t.Fatal(err)
	}
	var cands []cs.Change
	seen := map[[2]int]bool{}
	for _, s := range sys.Sites {
		e := newTableEdit(tt, src)
		row, th, err := e.slot(s)
		if err != nil || seen[[2]int{row, th}] || !laterInstr(tt, th, row) || row < 0 {
			continue
		}
		seen[[2]int{row, th}] = true
		cands = append(cands, cs.Change{Site: s, Kind: cs.FullFence})
	}
	if raises {
		for _, p := range sys.Procs {
			for _, e := range p.Edges {
				var c cs.Change
				switch {
				case e.Op.Kind == cs.OpRead && e.Op.Ann == 0:
					c = cs.Change{Pos: e.Pos, Ann: cs.Acquire}
				case e.Op.Kind == cs.OpWrite && e.Op.Ann == 0:
					c = cs.Change{Pos: e.Pos, Ann: cs.Release}
				default:
					continue
				}
				if _, err := EditChanges(src, []cs.Change{c}); err == nil {
					cands = append(cands, c)
				}
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Site != nil && cands[j].Site == nil })
	for n := 1; n <= 4; n++ {
		found := false
		subsets(len(cands), n, func(idx []int) bool {
			var chs []cs.Change
			for _, i := range idx {
				chs = append(chs, cands[i])
			}
			out, err := EditChanges(src, chs)
			if err != nil {
				h.t.Fatalf("%s: %v", f, err)
			}
			if _, err := Parse(f, out); err != nil {
				h.t.Fatalf("%s: the edited test does not parse: %v\n%s", f, err, out)
			}
			if !h.reached(out, cat) {
				found = true
				if os.Getenv("HERD7_PRINT") != "" {
					fmt.Printf("%s: fixed with %d changes:\n%s\n", f, n, tableText(out))
				}
				return false
			}
			return true
		})
		if found {
			return fmt.Sprintf("fences=%d", n)
		}
	}
	return "fences>4"
}

// laterInstr reports whether thread th has an instruction after row.
func laterInstr(t *test, th, row int) bool {
	for r := row + 1; r < len(t.w[th]); r++ {
		if k := t.w[th][r].kind; k != wEmpty && k != wLabel {
			return true
		}
	}
	return false
}

// subsets calls f on every n-subset of 0..m-1 until f returns false.
func subsets(m, n int, f func([]int) bool) {
	idx := make([]int, n)
	var rec func(i, from int) bool
	rec = func(i, from int) bool {
		if i == n {
			return f(idx)
		}
		for k := from; k < m; k++ {
			idx[i] = k
			if !rec(i+1, k+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// tableText is the program table of a test, for printing.
func tableText(src []byte) string {
	s := string(src)
	if i := strings.Index(s, "}"); i >= 0 {
		s = s[i+1:]
	}
	return s
}
