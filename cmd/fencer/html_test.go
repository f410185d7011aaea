package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pageSections parses an --html page strictly as XML (it is written to be
// well-formed) and returns, per witness section in order, its id and the
// number of step (or event) elements in it.
func pageSections(b []byte) ([]string, []int, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var ids []string
	var counts []int
	depth, in := 0, -1 // in: the depth of the open section, -1 outside
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			class := ""
			for _, a := range t.Attr {
				if a.Name.Local == "class" {
					class = " " + a.Value + " "
				}
			}
			switch {
			case t.Name.Local == "script":
				return nil, nil, fmt.Errorf("a script element")
			case t.Name.Local == "section" && strings.Contains(class, " witness "):
				in = depth
				for _, a := range t.Attr {
					if a.Name.Local == "id" {
						ids = append(ids, a.Value)
					}
				}
				counts = append(counts, 0)
			case in >= 0 && t.Name.Local == "g" && (strings.Contains(class, " step ") || strings.Contains(class, " event ")):
				counts[len(counts)-1]++
			}
		case xml.EndElement:
			if depth == in {
				in = -1
			}
			depth--
		}
	}
	return ids, counts, nil
}

// reportSteps reads a JSON report and returns what the page must show:
// per witness, in the page's order (the fences', then the trace), the
// number of steps or events.
func reportSteps(t *testing.T, b []byte) []int {
	t.Helper()
	var rep struct {
		Fences []struct {
			Witness *struct {
				Steps []json.RawMessage `json:"steps"`
			} `json:"witness"`
			Needed *struct {
				Events []json.RawMessage `json:"events"`
			} `json:"needed"`
		} `json:"fences"`
		Trace *struct {
			Steps []json.RawMessage `json:"steps"`
		} `json:"trace"`
		Witness *struct {
			Events []json.RawMessage `json:"events"`
		} `json:"witness"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range rep.Fences {
		switch {
		case f.Witness != nil:
			out = append(out, len(f.Witness.Steps))
		case f.Needed != nil:
			out = append(out, len(f.Needed.Events))
		}
	}
	if rep.Trace != nil {
		out = append(out, len(rep.Trace.Steps))
	}
	if rep.Witness != nil {
		out = append(out, len(rep.Witness.Events))
	}
	return out
}

// checkHTML runs fencer with --html and --json and checks that the page
// is well-formed and has a section per witness of the report, with one
// element per step or event. It returns the page and the number of
// witnesses.
func checkHTML(t *testing.T, dir string, args ...string) ([]byte, int) {
	t.Helper()
	page, js := filepath.Join(dir, "page.html"), filepath.Join(dir, "report.json")
	os.Remove(page)
	all := append([]string{args[0], "--html", page, "--json", js}, args[1:]...)
	_, stderr, code := fencer(t, all...)
	if code == exitInput || code > exitUnknown {
		t.Fatalf("fencer %s: exit %d\n%s", strings.Join(all, " "), code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatalf("fencer %s: no page: %v", strings.Join(all, " "), err)
	}
	ids, counts, err := pageSections(b)
	if err != nil {
		t.Fatalf("fencer %s: the page is not well-formed: %v", strings.Join(all, " "), err)
	}
	jb, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	want := reportSteps(t, jb)
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("fencer %s: the page's sections %v have %v step elements, the report's witnesses %v steps", strings.Join(all, " "), ids, counts, want)
	}
	return b, len(want)
}

// The pages of the examples: a fence's witness under TSO, a trace to a
// bad state under PSO, an SC bug, changes under arm with the execution
// each forbids, an execution of a litmus test under arm.
func TestHTMLPages(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"insert", "--explain", bench("peterson.cs")},
		{"verify", "--model", "pso", bench("mp.cs")},
		{"insert", bench("sc_bug.cs")},
		{"insert", "--model", "arm", bench("c/mp.c")},
		{"verify", "--model", "arm", bench("litmus/arm/iriw.litmus")},
	} {
		_, n := checkHTML(t, dir, args...)
		if n == 0 {
			t.Errorf("fencer %s: no witness", strings.Join(args, " "))
		}
	}
	if _, stderr, code := fencer(t, "verify", "--html", filepath.Join(dir, "no", "such", "dir", "p.html"), bench("sb.cs")); code != exitInput || !strings.Contains(stderr, "p.html") {
		t.Errorf("--html into a missing directory: exit %d, %s", code, stderr)
	}
	// --html -: the page on standard output, the verdict on stderr.
	out, stderr, code := fencer(t, "verify", "--model", "tso", "--html", "-", bench("sb.cs"))
	if _, counts, err := pageSections([]byte(out)); code != exitBad || err != nil || len(counts) != 1 || !strings.Contains(stderr, "unsafe under tso") {
		t.Errorf("verify --html -: exit %d, %v, sections %v, stderr %s", code, err, counts, stderr)
	}
	for _, args := range [][]string{
		{"verify", "--html", "-", "--json", "-", bench("sb.cs")},
		{"insert", "--html", "-", bench("sb.cs")},
	} {
		if _, stderr, code := fencer(t, args...); code != exitInput || !strings.Contains(stderr, "standard output") {
			t.Errorf("fencer %s: exit %d, %s", strings.Join(args, " "), code, stderr)
		}
	}
}

// Every benchmark's fences and counterexamples as pages (make soak: a
// few minutes): insert --explain under tso and pso on benchmarks/*.cs,
// under arm and tso on benchmarks/c/*.c, and verify on the litmus tests.
func TestHTMLSweep(t *testing.T) {
	if os.Getenv("FENCER_SOAK") == "" {
		t.Skip("every benchmark: make soak runs it (FENCER_SOAK)")
	}
	dir := t.TempDir()
	type run struct {
		glob   string
		cmd    string
		models []string
	}
	pages, witnesses := 0, 0
	for _, r := range []run{
		{"*.cs", "insert", []string{"tso", "pso"}},
		{"c/*.c", "insert", []string{"tso", "arm"}},
		{"litmus/x86/*.litmus", "verify", []string{"tso"}},
		{"litmus/arm/*.litmus", "verify", []string{"arm"}},
		{"litmus/riscv/*.litmus", "verify", []string{"riscv"}},
	} {
		files, _ := filepath.Glob(bench(r.glob))
		for _, f := range files {
			for _, m := range r.models {
				args := []string{r.cmd, "--model", m, "--timeout", "120s", f}
				if r.cmd == "insert" {
					args = append(args, "--explain", "-o", filepath.Join(dir, "out"))
				}
				_, n := checkHTML(t, dir, args...)
				pages++
				witnesses += n
			}
		}
	}
	t.Logf("%d pages, %d witnesses", pages, witnesses)
}

// The browser test: headless Chromium (Debian's chromium) renders the
// example pages, and the screenshot of each shows the lanes and the
// marked pair (their colours, #eef1f5 and #c2002f, are used for nothing
// else). It runs wherever chromium is installed, and in make soak.
func TestBrowserRendersPages(t *testing.T) {
	chromium := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		t.Skip("no chromium on this machine (apt-get install chromium)")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"insert", "--explain", bench("peterson.cs")},
		{"verify", "--model", "pso", bench("mp.cs")},
		{"insert", "--model", "arm", bench("c/mp.c")},
	} {
		b, _ := checkHTML(t, dir, args...)
		page := filepath.Join(dir, "shown.html")
		if err := os.WriteFile(page, b, 0o644); err != nil {
			t.Fatal(err)
		}
		shot := filepath.Join(dir, "shot.png")
		os.Remove(shot)
		if err := screenshot(chromium, page, shot, 1200, 1600); err != nil {
			t.Fatalf("fencer %s: %v", strings.Join(args, " "), err)
		}
		lane, marked := countColours(t, shot, color.RGBA{0xee, 0xf1, 0xf5, 0xff}, color.RGBA{0xc2, 0x00, 0x2f, 0xff})
		t.Logf("fencer %s: %d lane pixels, %d marked", strings.Join(args, " "), lane, marked)
		if lane < 2000 || marked < 50 {
			t.Errorf("fencer %s: the screenshot has %d pixels of lane and %d of the marked pair", strings.Join(args, " "), lane, marked)
		}
	}
}

// screenshot has chromium draw page into a PNG of w×h pixels.
func screenshot(chromium, page, png string, w, h int) error {
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(filepath.Dir(png), "profile"),
		"--window-size="+strconv.Itoa(w)+","+strconv.Itoa(h), "--screenshot="+png, "file://"+page)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if _, serr := os.Stat(png); serr != nil {
			return fmt.Errorf("chromium wrote no screenshot (%v): %s", err, out.String())
		}
		return nil
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		return fmt.Errorf("chromium did not finish in 90 s: %s", out.String())
	}
}

// countColours counts the pixels of the PNG at path that are exactly a
// and exactly b.
func countColours(t *testing.T, path string, a, b color.RGBA) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	na, nb := 0, 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			switch c {
			case a:
				na++
			case b:
				nb++
			}
		}
	}
	return na, nb
}
