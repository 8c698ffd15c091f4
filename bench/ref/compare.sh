#!/usr/bin/env bash
# compare.sh [-n RUNS] 'COMMAND A' 'COMMAND B': runs A and B alternately,
# RUNS times each (default 5), each printing TSV lines "metric size value
# unit", and prints for every (metric, size) that both print, in A's order,
# the median of each and A's speedup over B: above 1 when A is faster (B/A
# for times, A/B for rates). Lines that are not figures (fewer fields, a
# value that is no number) are skipped. The header and the six columns are
# what cmd/benchmd reads. The machines here are shared and noisy: the ratio
# of medians taken in one alternating run is what holds still.
set -euo pipefail
runs=5
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
[ $# -eq 2 ] || { echo "usage: compare.sh [-n RUNS] 'COMMAND A' 'COMMAND B'" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for _ in $(seq "$runs"); do
  for side in a b; do
    cmd=$1; [ "$side" = b ] && cmd=$2
    if ! bash -c "$cmd" >>"$dir/$side.tsv" 2>>"$dir/$side.err"; then
      echo "compare.sh: command ${side^^} failed: $cmd" >&2
      tail -n 20 "$dir/$side.err" >&2
      exit 1
    fi
  done
done
python3 - "$dir/a.tsv" "$dir/b.tsv" <<'PY'
import statistics
import sys


def figures(path):
    """(metric, size) -> [values] in first-seen order, and each one's unit."""
    values, units = {}, {}
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                continue
            try:
                v = float(fields[2])
            except ValueError:
                continue
            key = (fields[0], fields[1])
            values.setdefault(key, []).append(v)
            units.setdefault(key, fields[3])
    return values, units


a, units = figures(sys.argv[1])
b, _ = figures(sys.argv[2])
print("metric\tsize\tA_median\tB_median\tunit\tspeedup_A_over_B")
for key, va in a.items():
    if key not in b:
        continue
    ma, mb = statistics.median(va), statistics.median(b[key])
    unit = units[key]
    if unit in ("ns", "us", "ms", "s"):
        speedup = mb / ma if ma > 0 else float("inf")
    else:
        speedup = ma / mb if mb > 0 else float("inf")
    print(f"{key[0]}\t{key[1]}\t{ma:.4g}\t{mb:.4g}\t{unit}\t{speedup:.2f}")
PY
