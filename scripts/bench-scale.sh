#!/usr/bin/env bash
# bench-scale.sh (make bench-scale): how goga's collectives grow with the
# number of processes, next to the MPI calls they wrap. `gabench
# -collectives` (Brdcst, Gop, Sync, Create and Destroy, and MPI_Bcast,
# MPI_Allreduce and MPI_Barrier as limits, all in one run) and the demo
# (cmd/demo, its whole run) at np = 2, 4, 8 and 16 over the four nodes
# simulated on this machine (placed 1+1, 1+1+1+1, 2+2+2+2, 4x4), each the
# median of BENCH_RUNS runs. Output (stdout, also bin/bench-scale.tsv):
#
#	np placement metric median unit
#
# On a machine of few cores, the larger jobs oversubscribe it many times:
# their times say how the protocols grow only as far as the ratio to MPI's
# own calls in the same runs does.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${BENCH_RUNS:-5}
export OPENBLAS_NUM_THREADS=1
out=bin/bench-scale.tsv
: >"$out"
for p in 2:1+1 4:1+1+1+1 8:2+2+2+2 16:4x4; do
  np=${p%%:*} placement=${p#*:}
  args=$(go run ./internal/mpitest/twonodeargs -placement "$placement" | tr '\n' ' ')
  raw=$(mktemp)
  for _ in $(seq "$runs"); do
    ./mpirun.sh -np "$np" $args bin/gabench -collectives >>"$raw"
    t0=$(date +%s.%N)
    ./mpirun.sh -np "$np" $args bin/demo >/dev/null
    t1=$(date +%s.%N)
    printf 'demo_s\t%d\t%s\ts\n' "$np" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" >>"$raw"
  done
  python3 - "$raw" "$np" "$placement" <<'PY' | tee -a "$out"
import statistics, sys
path, np_, placement = sys.argv[1:]
values, units = {}, {}
for line in open(path):
    f = line.rstrip("\n").split("\t")
    if len(f) != 4:
        continue
    try:
        v = float(f[2])
    except ValueError:
        continue
    values.setdefault(f[0], []).append(v)
    units[f[0]] = f[3]
for m, vs in values.items():
    print(f"{np_}\t{placement}\t{m}\t{statistics.median(vs):.4g}\t{units[m]}")
PY
  rm -f "$raw"
done
