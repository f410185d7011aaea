package report

import (
	"strconv"
	"strings"

	"fencer/memmodel"
)

// plural says "1 fence", "2 fences", "0 fences".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Upper is the model's name in capitals ("TSO").
func Upper(m memmodel.Model) string { return strings.ToUpper(m.String()) }
