package cfront

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"modernc.org/cc/v4"
)

//go:embed include/*.h
var headers embed.FS

// includeDir is the directory that the analysis-only headers appear to be
// in, ahead of the system's: it does not exist on disk, headerFS answers
// for it.
const includeDir = "/fencer-analysis-include"

// headerFS serves the analysis-only headers under includeDir; every other
// name is not found here, so cc opens it from the host file system.
type headerFS struct{}

func (headerFS) Open(name string) (fs.File, error) {
	if dir, base := path.Split(name); strings.TrimSuffix(dir, "/") == includeDir {
		return headers.Open("include/" + base)
	}
	return nil, fs.ErrNotExist
}

var (
	// sourceCache keeps the headers scanned across the translations of one
	// run (a file, its patched version, the files of fencer check).
	sourceCache = &cc.SourceCache{}
	configOnce  sync.Once
	baseConfig  *cc.Config
	configErr   error
)

// hostConfig returns the host C compiler's configuration (NewConfig runs
// gcc once per process), with the analysis-only headers first.
func hostConfig() (*cc.Config, error) {
	configOnce.Do(func() {
		baseConfig, configErr = cachedConfig()
	})
	if configErr != nil {
		return nil, configErr
	}
	c := *baseConfig
	c.FS = headerFS{}
	c.SourceCache = sourceCache
	c.SysIncludePaths = append([]string{includeDir}, baseConfig.SysIncludePaths...)
	c.IncludePaths = append([]string{"", includeDir}, baseConfig.IncludePaths[1:]...)
	return &c, nil
}

// savedConfig is what cc.NewConfig learns from the host compiler (by
// running it twice, about 0.1 s): kept in the user's cache directory,
// keyed by the compiler binary, so that later runs build the Config by
// hand.
type savedConfig struct {
	CC, Predefined                        string
	IncludePaths, SysIncludePaths         []string
	HostIncludePaths, HostSysIncludePaths []string
}

// cachedConfig returns the host configuration, from the cache when the
// compiler has not changed since it was saved.
func cachedConfig() (*cc.Config, error) {
	path := configCachePath()
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			var sc savedConfig
			if json.Unmarshal(b, &sc) == nil && sc.Predefined != "" {
				abi, err := cc.NewABI(runtime.GOOS, runtime.GOARCH)
				if err == nil {
					c := &cc.Config{ABI: abi, CC: sc.CC, Predefined: sc.Predefined,
						IncludePaths: sc.IncludePaths, SysIncludePaths: sc.SysIncludePaths,
						HostIncludePaths: sc.HostIncludePaths, HostSysIncludePaths: sc.HostSysIncludePaths}
					if c.ApplyOptions("-std=gnu11") == nil {
						return c, nil
					}
				}
			}
		}
	}
	c, err := cc.NewConfig("", "", "-std=gnu11")
	if err != nil {
		return nil, err
	}
	if path != "" {
		sc := savedConfig{c.CC, c.Predefined, c.IncludePaths, c.SysIncludePaths, c.HostIncludePaths, c.HostSysIncludePaths}
		if b, err := json.Marshal(sc); err == nil && os.MkdirAll(filepath.Dir(path), 0o755) == nil {
			tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
			if os.WriteFile(tmp, b, 0o644) == nil {
				os.Rename(tmp, path)
			}
		}
	}
	return c, nil
}

// configCachePath names the cache file of the host compiler that
// cc.NewConfig would run ($CC, else cc, else gcc), or "" if there is none.
func configCachePath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	var bin string
	for _, name := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		return ""
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return ""
	}
	st, err := os.Stat(real)
	if err != nil {
		return ""
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%s/%s\x00cc/v4.34.0", bin, real, st.Size(), st.ModTime().UnixNano(), runtime.GOOS, runtime.GOARCH)))
	return filepath.Join(dir, "fencer", "cc-config-"+hex.EncodeToString(h[:8])+".json")
}
