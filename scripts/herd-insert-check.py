#!/usr/bin/env python3
"""herd-insert-check.py -- check fencer insert against herd7 on litmus tests.

Usage: scripts/herd-insert-check.py FENCER HERD7 MODEL TEST.litmus...

MODEL is arm or riscv (herd7 runs aarch64.cat or riscv.cat). For each test
whose outcome herd7 finds reachable (Sometimes) and that is not an SC bug:

  1. fencer insert --model MODEL TEST writes the patched test; herd7 must
     find its outcome unreachable (Never);
  2. herd7 decides, by brute force, whether a set of fewer full barriers
     (DMB SY, fence rw,rw) than fencer's changes forbids the outcome: a
     barrier row between two instructions of a thread, every set of each
     size below fencer's count. fencer's count must be at most herd's
     fewest full barriers, so no such smaller set may exist.

Prints a row per test and the counts; exits 1 on any failure. A reference
for measuring, not a test: CI has no herd7.
"""
import itertools
import re
import subprocess
import sys
import tempfile
import os

CAT = {"arm": "aarch64.cat", "riscv": "riscv.cat"}
BARRIER = {"arm": "DMB SY", "riscv": "fence rw,rw"}


def herd(herd7, cat, text):
    with tempfile.NamedTemporaryFile("w", suffix=".litmus", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        out = subprocess.run([herd7, "-model", cat, path], capture_output=True, text=True, timeout=120).stdout
    finally:
        os.unlink(path)
    m = re.search(r"^Observation \S+ (Never|Sometimes|Always)", out, re.M)
    return m.group(1) if m else None


def table(text):
    """The program table's line range [start, end) and its number of
    threads: from the header row "P0 | P1 ... ;" to the line before the
    condition."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if re.match(r"\s*P0\s*(\||;)", l))
    end = next(i for i in range(start + 1, len(lines))
               if re.match(r"\s*(exists|~exists|forall|locations|filter)\b", lines[i]) or lines[i].strip() == "")
    ncols = lines[start].count("|") + 1
    return lines, start, end, ncols


def cells(line):
    return [c.strip() for c in line.rstrip().rstrip(";").split("|")]


def positions(lines, start, end, ncols):
    """(row index after which, thread) where a barrier lies between two
    instructions of the thread."""
    rows = [cells(lines[i]) for i in range(start + 1, end)]
    out = []
    for t in range(ncols):
        used = [i for i, r in enumerate(rows) if t < len(r) and r[t] and not r[t].endswith(":")]
        if len(used) < 2:
            continue
        for r in range(used[0], used[-1]):
            out.append((r, t))
    return out


def with_barriers(lines, start, end, ncols, chosen, barrier):
    new = lines[:start + 1]
    for r in range(end - start - 1):
        new.append(lines[start + 1 + r])
        for t in sorted(t for (rr, t) in chosen if rr == r):
            row = ["" for _ in range(ncols)]
            row[t] = barrier
            new.append(" " + " | ".join(row) + " ;")
    new += lines[end:]
    return "\n".join(new)


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    fencer, herd7, model = sys.argv[1:4]
    cat, barrier = CAT[model], BARRIER[model]
    counts = {"ok": 0, "fail": 0, "skip": 0}
    for path in sys.argv[4:]:
        text = open(path).read()
        name = os.path.basename(path)
        before = herd(herd7, cat, text)
        if before != "Sometimes":
            counts["skip"] += 1
            continue
        if herd(herd7, "sc.cat", text) != "Never":
            counts["skip"] += 1  # an SC bug: no change helps
            continue
        r = subprocess.run([fencer, "insert", "-q", "--model", model, "--json", "-", "-o", "/dev/null", path],
                           capture_output=True, text=True)
        p = subprocess.run([fencer, "insert", "-q", "--model", model, path], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{name:40s} FAIL fencer insert exit {p.returncode}: {p.stderr.strip()[:120]}")
            counts["fail"] += 1
            continue
        import json
        n = len(json.loads(r.stdout)["fences"])
        after = herd(herd7, cat, p.stdout)
        if after != "Never":
            print(f"{name:40s} FAIL herd7 says {after} on the patched test")
            counts["fail"] += 1
            continue
        lines, start, end, ncols = table(text)
        pos = positions(lines, start, end, ncols)
        smaller = None
        for k in range(1, n):
            for chosen in itertools.combinations(pos, k):
                if herd(herd7, cat, with_barriers(lines, start, end, ncols, chosen, barrier)) == "Never":
                    smaller = chosen
                    break
            if smaller:
                break
        if smaller:
            print(f"{name:40s} FAIL {n} changes, herd7 forbids it with {len(smaller)} {barrier}: {smaller}")
            counts["fail"] += 1
        else:
            print(f"{name:40s} ok   {n} changes")
            counts["ok"] += 1
    print(f"{counts['ok']} ok, {counts['fail']} failed, {counts['skip']} skipped (outcome forbidden, or an SC bug)")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
