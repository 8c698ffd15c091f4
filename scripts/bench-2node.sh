#!/usr/bin/env bash
# bench-2node.sh (make bench-2node): cmd/armcibench and cmd/gabench on 1 + 1
# ranks split over the two nodes simulated on this machine (mpitest's
# TwoNodes flags), alternating with the C references under the same flags
# (bench/ref/compare.sh); then the figures only goga prints (limits
# such as two-sided MPI between the same two ranks) as medians of its runs,
# what gabench.c does not time against GA C (scripts/gaextrabench.c), and
# the demo in both layouts on 2 + 2 ranks. A run that fails or outlives
# LIMIT seconds is reported as such, not waited for.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${BENCH_RUNS:-3}  # the Makefile's defaults (BENCH_2NODE_RUNS, LIMIT)
limit=${LIMIT:-150}
# The 1 + 1 runs bind each rank to a core of its own, as mpirun does on real
# nodes: the tests' flags (--bind-to none, which 2 + 2 ranks on two cores
# need) left the scheduler to place goga's threads (the server's beside
# the program's), and its barrier and sync took 9.5-10.3 or 12.5-15 µs
# depending on where they landed, while the C references, which start no
# thread of their own, stayed near 9. mpitest.TwoNodesBound writes the
# rankfile that names each rank's node and core. Those runs leave Open
# MPI's mpi_yield_when_idle off, as mpirun does where ranks do not
# outnumber cores; the 2 + 2 runs, which do, have it on.
two=$(go run ./internal/mpitest/twonodeargs -rankfile bin/2node-rankfile 2 | tr '\n' ' ')
four=$(go run ./internal/mpitest/twonodeargs 4 | tr '\n' ' ')
export OPENBLAS_NUM_THREADS=1

# timed LOG PROGRAM [ARGS]: one run of PROGRAM on 1 + 1 ranks, as a command
# for compare.sh: it prints the run's figures and appends them to LOG, and
# notes there a run that failed or timed out.
timed() {
  echo "timeout -k 10 $limit ./mpirun.sh -np 2 $two $2 | tee -a $1;" \
    "rc=\${PIPESTATUS[0]}; [ \$rc = 0 ] || echo \"# $2: status \$rc (124: not finished in $limit s)\" | tee -a $1 >&2"
}

for b in armcibench gabench; do
  rm -f "bin/2node-$b.tsv" "bin/2node-$b-ref.tsv"
  echo "== $b on two nodes, 1 + 1 ranks: goga against the C reference, medians of $runs runs"
  bench/ref/compare.sh -n "$runs" "$(timed "bin/2node-$b.tsv" "bin/$b")" "$(timed "bin/2node-$b-ref.tsv" "bin/ref/$b")"
  grep -h '^#' "bin/2node-$b.tsv" "bin/2node-$b-ref.tsv" || true
  echo "== figures only goga's $b prints (medians)"
  python3 - "bin/2node-$b.tsv" "bin/2node-$b-ref.tsv" <<'PY'
import sys, statistics
def load(p):
    d = {}
    for line in open(p):
        f = line.rstrip("\n").split("\t")
        if len(f) == 4 and not line.startswith("#"):
            try:
                d.setdefault((f[0], f[1]), []).append((float(f[2]), f[3]))
            except ValueError:
                pass
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
for k, v in a.items():
    if k not in b:
        print(f"{k[0]}\t{k[1]}\t{statistics.median(x for x, _ in v):.4g}\t{v[0][1]}")
PY
done

echo "== mutexes, Create and Destroy, Brdcst and Gop, Scatter and Gather on two nodes, 1 + 1 ranks:"
echo "   gabench -extra against scripts/gaextrabench.c (GA C), medians of $runs runs"
rm -f bin/2node-extra.tsv bin/2node-extra-ref.tsv
bench/ref/compare.sh -n "$runs" "$(timed bin/2node-extra.tsv 'bin/gabench -extra')" "$(timed bin/2node-extra-ref.tsv bin/gaextrabench)"
grep -h '^#' bin/2node-extra.tsv bin/2node-extra-ref.tsv || true

echo "== the demo on two nodes, 2 + 2 ranks"
for layout in blockcyclic regular; do
  timeout -k 10 "$limit" ./mpirun.sh -np 4 $four bin/demo -layout "$layout" | grep -E '^time|layout' ||
    echo "# demo -layout $layout failed or did not finish in $limit s"
done
