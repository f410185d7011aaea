#!/usr/bin/env bash
# scale-n5.sh -- the six locks of benchmarks/scale at N = 5 under TSO and
# PSO, each with a time and a memory limit (issue 38 part 4).
#
# Usage:  scripts/scale-n5.sh [FILE...]
#   FILE    programs to run (default: bakery burns dijkstra filter
#           szymanski ticket of benchmarks/scale)
# Environment:
#   FENCER   the fencer binary (default: fencer on PATH, else ./fencer)
#   TIMEOUT  --timeout of each run (default 5m)
#   MAXMEM   --max-memory of each run (default 2GB)
#   MODELS   the models (default "tso pso")
#   N        the number of processes, -D N=... (default 5)
#
# Runs `fencer insert` on each file under each model, one run at a time
# and niced, and prints a row per run: the file, the model, the verdict,
# the abstract states explored, the user CPU seconds and the peak resident
# memory (both from /usr/bin/time), and either the fences of the answer
# or, for unknown, what the run proved before it stopped (the "known" and
# "partial" keys of its JSON report, docs/report.md). The exit code is 1
# when a run failed in another way than a verdict (exit 2, or no report).
set -uo pipefail

timeout=${TIMEOUT:-5m}
maxmem=${MAXMEM:-2GB}
models=${MODELS:-tso pso}
n=${N:-5}
fencer=${FENCER:-}
if [ -z "$fencer" ]; then
  if command -v fencer >/dev/null 2>&1; then fencer=fencer; else fencer=./fencer; fi
fi
if [ $# -eq 0 ]; then
  set -- benchmarks/scale/{bakery,burns,dijkstra,filter,szymanski,ticket}.cs
fi
if [ ! -x /usr/bin/time ]; then
  echo "$0: needs /usr/bin/time (GNU time) for the CPU time and the peak memory" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0
printf '%-14s %-5s %-8s %12s %9s %9s  %s\n' file model verdict states user_s rss_MB "fences, or what is known"
for f in "$@"; do
  for m in $models; do
    rm -f "$tmp/r.json"
    nice -n 10 /usr/bin/time -f '%U %M' -o "$tmp/time" \
      "$fencer" insert -q --model "$m" --timeout "$timeout" --max-memory "$maxmem" \
      --json "$tmp/r.json" -D "N=$n" "$f" >/dev/null 2>"$tmp/err"
    code=$?
    read -r user rss < <(tail -n 1 "$tmp/time") || { user=? rss=0; }
    if [ ! -s "$tmp/r.json" ] || [ "$code" -eq 2 ]; then
      printf '%-14s %-5s %-8s %12s %9s %9s  %s\n' "$(basename "$f")" "$m" "error" - "$user" "$((rss / 1024))" "exit $code: $(head -c 200 "$tmp/err" | tr '\n' ' ')"
      status=1
      continue
    fi
    python3 - "$tmp/r.json" "$(basename "$f")" "$m" "$user" "$rss" <<'EOF'
import json, sys

path, name, model, user, rss = sys.argv[1:]
r = json.load(open(path))
stats = r.get("stats") or {}
if r["verdict"] == "correct" and not r["fences"]:
    what = "no fence needed"
elif r["verdict"] == "correct":
    what = "%d fences: lines %s" % (len(r["fences"]), ",".join(str(f["line"]) for f in r["fences"]))
elif r["verdict"] == "unknown":
    out = [r.get("reason", "")]
    p = r.get("partial")
    if p and p["phase"] != "SC":
        out.append("%s phase: %d fences so far, at least %d needed" % (p["phase"], len(p["fences"]), p["lower_bound"]))
    k = r.get("known") or {}
    if k.get("sc_correct"):
        out.append("SC correct")
    if k.get("clean"):
        out.append(k["clean"][-1]["text"])
    if k.get("stopped"):
        out.append("stopped after %d states" % k["stopped"]["states"])
    what = "; ".join(out)
else:
    what = r.get("reason", "")
print("%-14s %-5s %-8s %12d %9s %9d  %s" % (name, model, r["verdict"], stats.get("states", 0), user, int(rss) // 1024, what))
EOF
  done
done
exit $status
