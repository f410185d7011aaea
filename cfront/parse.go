package cfront

import (
	"embed"
	"io/fs"
	"path"
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
	configOnce sync.Once
	baseConfig *cc.Config
	configErr  error
)

// hostConfig returns the host C compiler's configuration (NewConfig runs
// gcc once per process), with the analysis-only headers first.
func hostConfig() (*cc.Config, error) {
	configOnce.Do(func() {
		baseConfig, configErr = cc.NewConfig("", "", "-std=gnu11")
	})
	if configErr != nil {
		return nil, configErr
	}
	c := *baseConfig
	c.FS = headerFS{}
	c.SysIncludePaths = append([]string{includeDir}, baseConfig.SysIncludePaths...)
	c.IncludePaths = append([]string{"", includeDir}, baseConfig.IncludePaths[1:]...)
	return &c, nil
}
