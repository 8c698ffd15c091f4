#!/usr/bin/env bash
# bench-flood.sh (make bench-flood): what a stranger's flood of datagrams at
# the doorbells costs a job. cmd/armcibench runs on 1 + 1 ranks over the two
# simulated nodes (as in bench-2node.sh) while scripts/flood.py sends RATE
# datagrams a second of random bytes at the job's UDP ports, alternating
# with the same flood sent to a decoy socket that nobody reads: the ratio of
# medians is the job's own cost of dropping the flood (each forged ring
# costs its server one wake-up and one HMAC), apart from the CPU the
# flooder takes on this machine, which a stranger on another host would
# not. A second comparison, decoy against no flood at all, shows that CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${BENCH_RUNS:-5}
rate=${RATE:-10000}
two=$(go run ./internal/mpitest/twonodeargs -rankfile bin/2node-rankfile 2 | tr '\n' ' ')
export OPENBLAS_NUM_THREADS=1
run="./mpirun.sh -np 2 $two bin/armcibench"
flood="scripts/flood.py --rate $rate --name armcibench"
echo "== armcibench, 1 + 1 ranks on two nodes: $rate forged datagrams/s at the job's doorbells (A) against the same at a decoy (B), medians of $runs runs"
bench/ref/compare.sh -n "$runs" "$flood --target job -- $run" "$flood --target decoy -- $run"
echo "== the flooder's own CPU: the flood at a decoy (A) against no flood (B)"
bench/ref/compare.sh -n "$runs" "$flood --target decoy -- $run" "$run"
