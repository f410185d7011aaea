#!/usr/bin/env bash
# herd-compare.sh -- compare fencer's verdicts with herd7's on litmus tests.
#
# Usage:  scripts/herd-compare.sh [-f FENCER] [-t SECONDS] DIR HERD7 MODEL
#   DIR     a directory of .litmus tests (benchmarks/litmus/arm, ...)
#   HERD7   herd7 (the wrapper tools/herd/build.sh writes, which passes
#           herd's cat library)
#   MODEL   fencer's model: arm, riscv, sc, tso; herd7 runs the cat model
#           of the same name (aarch64.cat, riscv.cat, sc.cat, x86tso.cat),
#           or $HERD_CAT when set
#   -f      the fencer binary (default: fencer on PATH, else ./fencer)
#   -t      time limit per run of each tool (default 60 s)
#
# For each test: herd7 -model CAT FILE says whether the outcome is reached
# (Observation Never/Sometimes/Always, read with the test's quantifier:
# exists and ~exists reach it unless Never, forall unless Always), and
# fencer verify --model MODEL FILE answers by its exit code: 0 the outcome
# is unreachable, 1 reachable, 2 refused (the test or the model is not
# read), 3 unknown. A row per test, then the counts of agree, disagree,
# refused (fencer exit 2), unknown (fencer exit 3 or out of time), and herd
# errors (herd7 refused the test, or warned that it cut a loop: "unrolling
# limit exceeded", its outcomes may then be missing), and the total time
# of each tool. The exit code is 1 when a test disagrees, else 0.
set -uo pipefail

fencer=""
limit=60
while getopts "f:t:h" opt; do
  case $opt in
    f) fencer=$OPTARG ;;
    t) limit=$OPTARG ;;
    h) sed -n '2,24p' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -ne 3 ]; then
  echo "usage: $0 [-f FENCER] [-t SECONDS] DIR HERD7 MODEL" >&2
  exit 2
fi
dir=$1 herd=$2 model=$3
if [ -z "$fencer" ]; then
  if command -v fencer >/dev/null 2>&1; then fencer=fencer; else fencer=./fencer; fi
fi
case $model in
  arm) cat=aarch64.cat ;;
  riscv) cat=riscv.cat ;;
  sc) cat=sc.cat ;;
  tso) cat=x86tso.cat ;;
  *) cat=$model.cat ;;
esac
cat=${HERD_CAT:-$cat}
[ -d "$dir" ] || { echo "$0: $dir is not a directory" >&2; exit 2; }
[ -x "$herd" ] || command -v "$herd" >/dev/null 2>&1 || { echo "$0: no herd7 at $herd" >&2; exit 2; }

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

agree=0 disagree=0 refused=0 unknown=0 herderr=0 n=0
herd_ms=0 fencer_ms=0
printf '%-40s %-12s %-12s %-10s %8s %8s\n' test herd7 fencer verdict herd-ms fencer-ms
shopt -s nullglob
for f in "$dir"/*.litmus; do
  n=$((n + 1))
  t0=$(now)
  out=$(timeout "$limit" "$herd" -model "$cat" "$f" 2>&1)
  hrc=$?
  t1=$(now)
  obs=$(printf '%s\n' "$out" | sed -n 's/^Observation [^ ]* \([A-Za-z]*\).*/\1/p' | head -1)
  quant=$(printf '%s\n' "$out" | sed -n 's/^Condition \(~\{0,1\}[a-z]*\).*/\1/p' | head -1)
  h=error
  if printf '%s\n' "$out" | grep -q 'unrolling limit exceeded'; then
    h=limit # herd7 cut a loop: its outcomes may be missing
  elif [ $hrc -eq 0 ] && [ -n "$obs" ]; then
    if [ "$quant" = forall ]; then
      [ "$obs" = Always ] && h=unreachable || h=reachable
    else
      [ "$obs" = Never ] && h=unreachable || h=reachable
    fi
  fi
  t2=$(now)
  timeout "$limit" "$fencer" verify --model "$model" "$f" >/dev/null 2>&1
  frc=$?
  t3=$(now)
  case $frc in
    0) v=unreachable ;;
    1) v=reachable ;;
    2) v=refused ;;
    *) v=unknown ;;
  esac
  if [ $h = error ] || [ $h = limit ]; then
    verdict=herd-$h; herderr=$((herderr + 1))
  elif [ $v = refused ]; then
    verdict=refused; refused=$((refused + 1))
  elif [ $v = unknown ]; then
    verdict=unknown; unknown=$((unknown + 1))
  elif [ $v = $h ]; then
    verdict=agree; agree=$((agree + 1))
  else
    verdict=DISAGREE; disagree=$((disagree + 1))
  fi
  hm=$(ms "$t0" "$t1") fm=$(ms "$t2" "$t3")
  herd_ms=$((herd_ms + hm)) fencer_ms=$((fencer_ms + fm))
  printf '%-40s %-12s %-12s %-10s %8d %8d\n' "$(basename "$f")" "$h" "$v" "$verdict" "$hm" "$fm"
done
echo
printf '%d tests under %s (herd7 -model %s): %d agree, %d disagree, %d refused, %d unknown, %d herd errors or loops cut\n' \
  "$n" "$model" "$cat" "$agree" "$disagree" "$refused" "$unknown" "$herderr"
printf 'total time: herd7 %d.%03d s, fencer %d.%03d s\n' \
  $((herd_ms / 1000)) $((herd_ms % 1000)) $((fencer_ms / 1000)) $((fencer_ms % 1000))
[ "$disagree" -eq 0 ]
