package formats

import (
	"fmt"
	"strconv"
	"strings"
)

// Define is the option -D NAME=VALUE (--define, repeatable) of the formats
// with named constants: a preprocessor macro of a C program, a const of a
// .cs program. One option for both, so that a command line sets N the same
// way whatever the file's language.
var Define = Option{
	Name:    "define",
	Aliases: []string{"D"},
	Multi:   true,
	Usage:   "set `NAME=VALUE`: a const of a .cs program, a preprocessor macro of a C program (NAME alone: 1) (repeatable: -D N=4 -D M=1)",
}

// Consts reads the -D settings of opt as the integer consts of a .cs
// program (cs.Options.Consts); a later setting of a name wins. nil when
// there are none.
func Consts(opt Options) (map[string]int64, error) {
	list := opt[Define.Name]
	if len(list) == 0 {
		return nil, nil
	}
	out := map[string]int64{}
	for _, d := range list {
		name, val, ok := strings.Cut(d, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("-D %q: want NAME=VALUE, e.g. -D N=4", d)
		}
		v, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("-D %s: the value %q is not an integer", d, val)
		}
		out[name] = v
	}
	return out, nil
}
