package progen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// The benchmarks' use of the fencer binary and their settings.

// buildFencer builds the fencer binary into a temporary directory and
// returns its path.
func buildFencer(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "fencer")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/fencer").CombinedOutput(); err != nil {
		b.Fatal(string(out))
	}
	return bin
}

// envInt is the integer in the environment variable name, def when it
// is unset or not an integer.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// envString is the environment variable name, def when it is unset.
func envString(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// insertReport runs bin's insert on path under model with --timeout
// timeout, the patched program written to out, and returns the verdict
// and the number of fences of its JSON report ("unknown" and 0 when it
// wrote none).
func insertReport(b *testing.B, bin, path, model, timeout, out string) (string, int) {
	js := path + "." + model + ".json"
	_ = os.Remove(js)
	_ = exec.Command(bin, "insert", "--model", model, "--timeout", timeout, "--json", js, "-o", out, path).Run()
	raw, err := os.ReadFile(js)
	if err != nil {
		return "unknown", 0
	}
	var rep struct {
		Verdict string            `json:"verdict"`
		Fences  []json.RawMessage `json:"fences"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		b.Fatalf("%s: %v", js, err)
	}
	return rep.Verdict, len(rep.Fences)
}
