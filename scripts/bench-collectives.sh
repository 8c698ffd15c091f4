#!/usr/bin/env bash
# bench-collectives.sh (make bench-collectives): `gabench -collectives`
# against GA C's bench/ref/gacollbench.c, alternately (bench/ref/compare.sh,
# medians of BENCH_RUNS runs each), on 2 ranks of one node and on 1 + 1
# ranks of the two nodes simulated on this machine (placed as
# scripts/bench-2node.sh places them), goga as it runs by default (checked)
# and started Unchecked (GOGA_UNCHECKED=1). Each run also prints the MPI
# calls the collectives wrap (mpi_*_limit_us), on both sides.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${BENCH_RUNS:-5}
export OPENBLAS_NUM_THREADS=1
two=$(go run ./internal/mpitest/twonodeargs -rankfile bin/2node-rankfile 2 | tr '\n' ' ')
for layout in one-node two-nodes; do
  args=""
  [ "$layout" = two-nodes ] && args=$two
  for mode in checked unchecked; do
    env=""
    [ "$mode" = unchecked ] && env="GOGA_UNCHECKED=1"
    echo "== $layout, 2 ranks, goga $mode against GA C, medians of $runs runs"
    bench/ref/compare.sh -n "$runs" "$env ./mpirun.sh -np 2 $args bin/gabench -collectives" "./mpirun.sh -np 2 $args bin/ref/gacollbench"
  done
done
