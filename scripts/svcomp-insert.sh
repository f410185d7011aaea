#!/usr/bin/env bash
# svcomp-insert.sh FILE.c... : fencer insert --model tso and --model pso on
# each C program (SV-COMP's pthread-atomic algorithms, whose threads assume
# SC) and print a Markdown table: the program, the model, the answer (the
# number of fences, no fence needed, an SC bug, refused or unknown with
# the reason), the fence sites as lines of the file, and the time.
# docs/svcomp.md has the table this made.
#
# Environment: FENCER (default ./fencer), TIMEOUT (default 300s per run).
set -u
FENCER=${FENCER:-./fencer}
TIMEOUT=${TIMEOUT:-300s}
if [ $# -eq 0 ]; then
	echo "usage: $0 FILE.c..." >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| program | model | answer | fences after (line: statement) | time (s) |"
echo "|---|---|---|---|---|"
for f in "$@"; do
	base=$(basename "$f" .c)
	for m in tso pso; do
		t0=$(date +%s.%N)
		"$FENCER" insert --model "$m" --timeout "$TIMEOUT" --workers 1 -q "$f" >/dev/null 2>"$tmp/err"
		rc=$?
		t1=$(date +%s.%N)
		grep -v ': warning: ' "$tmp/err" >"$tmp/msg"
		first=$(head -1 "$tmp/msg")
		sites=""
		case $rc in
		0)
			answer=$(echo "$first" | sed -n 's/^[^ ]*: correct under [a-z]* with \([0-9]* fences\{0,1\}\).*/\1/p; s/^[^ ]*: correct under [a-z]*, \(no fence needed\).*/\1/p')
			sites=$(grep -E '^  [^ ]+:[0-9]+: ' "$tmp/msg" | sed -E 's/[[:space:]]+$//; s/^  [^ ]+:([0-9]+): after (.*)$/\1: `\2`/' | paste -sd '#' | sed 's/#/, /g')
			;;
		1) answer="SC bug ($(echo "$first" | sed -n 's/.*\(a trace of [0-9]* steps\).*/\1/p'))" ;;
		2) answer="refused: $(echo "$first" | sed 's/^[^ ]*: //')" ;;
		3) answer="unknown: $(echo "$first" | sed 's/^[^ ]*: //')" ;;
		*) answer="exit $rc: $first" ;;
		esac
		printf '| %s | %s | %s | %s | %.1f |\n' "$base" "$m" "$(echo "$answer" | tr '|' '/')" "$(echo "$sites" | tr '|' '/')" "$(echo "$t1 - $t0" | bc)"
	done
done
