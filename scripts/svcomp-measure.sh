#!/usr/bin/env bash
# svcomp-measure.sh DIR... : run fencer verify on every SV-COMP task
# definition (*.yml) of each DIR and print a Markdown table: the task,
# whether fencer read its program or refused it (and why), fencer's verdict
# (true, false, unknown with its reason), the expected verdict, whether
# they agree, and the time. The last lines sum it up. docs/svcomp.md has
# the tables this made.
#
# A task whose input file is a .i that is not in DIR but whose .c of the
# same stem is, is run on a .i made here by gcc -E from that .c (in a
# scratch directory, with a copy of the .yml pointing at it): the .c files
# of sv-benchmarks are the sources of its .i files.
#
# Environment: FENCER (default ./fencer), TIMEOUT (default 60s, per task),
# JOBS (default 1: tasks run one at a time, so that the times are those of
# one core).
set -u
FENCER=${FENCER:-./fencer}
TIMEOUT=${TIMEOUT:-60s}
JOBS=${JOBS:-1}
if [ $# -eq 0 ]; then
	echo "usage: $0 DIR..." >&2
	exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# expected TASK.yml: the expected verdict of unreach-call, or "-".
expected() {
	awk '/property_file:/ { p = ($0 ~ /unreach-call\.prp/) } p && /expected_verdict:/ { print $2; exit }' "$1" | tr -d "'\"" | grep . || echo -
}

# one TASK.yml: prints one table row (without the leading "|").
one() {
	local yml=$1 dir base input stem task out err rc t0 t1 verdict reason read exp agree
	dir=$(dirname "$yml")
	base=$(basename "$yml" .yml)
	task=$yml
	input=$(awk -F"'" '/^input_files:/ { print ($2 != "" ? $2 : $0) }' "$yml" | sed 's/^input_files: *//' | tr -d '"')
	if [ ! -e "$dir/$input" ] && [ "${input##*.}" = i ] && [ -e "$dir/${input%.i}.c" ]; then
		stem=${input%.i}
		mkdir -p "$scratch/$base"
		if ! gcc -E -P -w "$dir/$stem.c" -o "$scratch/$base/$stem.i" 2>"$scratch/$base/gcc.err"; then
			echo "| $base | refused: gcc -E failed: $(head -1 "$scratch/$base/gcc.err" | tr '|' '/') | - | $(expected "$yml") | - | - |"
			return
		fi
		cp "$yml" "$scratch/$base/$base.yml"
		task="$scratch/$base/$base.yml"
	fi
	out=$(mktemp -p "$scratch") err=$(mktemp -p "$scratch")
	t0=$(date +%s.%N)
	"$FENCER" verify --timeout "$TIMEOUT" --workers 1 -q "$task" >"$out" 2>"$err"
	rc=$?
	t1=$(date +%s.%N)
	verdict=$(sed -n '1s/^[^ ]*: \(true\|false\|unknown\) .*/\1/p' "$out")
	reason=""
	read=read
	case $rc in
	0 | 1) ;;
	2)
		read="refused: $(grep -m1 -E 'unsupported|error|: ' "$err" | sed "s|$scratch/$base/||g; s|$dir/||g" | tr '|' '/')"
		verdict=-
		;;
	3)
		reason=$(sed -n '1s/^[^ ]*: unknown (\(.*\))$/\1/p' "$out" | sed "s|$scratch/$base/||g; s|$dir/||g" | tr '|' '/')
		case $reason in
		*"do not include unreach-call"*) read="not run: no unreach-call property" reason="" verdict=- ;;
		esac
		;;
	*)
		read="crashed (exit $rc): $(head -1 "$err" | tr '|' '/')"
		verdict=-
		;;
	esac
	[ -z "$verdict" ] && verdict=-
	exp=$(expected "$yml")
	agree=-
	case $verdict in
	true | false) if [ "$verdict" = "$exp" ]; then agree=yes; else agree="**WRONG**"; fi ;;
	esac
	[ -n "$reason" ] && verdict="unknown: $reason"
	printf '| %s | %s | %s | %s | %s | %.1f |\n' "$base" "$read" "$verdict" "$exp" "$agree" "$(echo "$t1 - $t0" | bc)"
}
export -f one expected
export FENCER TIMEOUT scratch

echo "| task | read | verdict | expected | agrees | time (s) |"
echo "|---|---|---|---|---|---|"
rows=$(mktemp -p "$scratch")
for d in "$@"; do
	ls "$d"/*.yml
done | xargs -P "$JOBS" -I{} bash -c 'one "$1"' _ {} | sort -t'|' -k2,2 | tee "$rows"
n=$(wc -l <"$rows")
nread=$(grep -c '| read |' "$rows")
nrun=$(grep -c '| not run' "$rows")
right=$(grep -c '| yes |' "$rows")
wrong=$(grep -c 'WRONG' "$rows")
unknown=$(grep -c '| unknown' "$rows")
echo
echo "$n tasks, $nrun without an unreach-call property; of the $((n - nrun)) others: $nread read, $((n - nrun - nread)) refused; $right verdicts agree with the expected one, $wrong wrong, $unknown unknown."
