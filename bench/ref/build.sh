#!/usr/bin/env bash
# build.sh OUTDIR: builds the C reference benchmarks, gabench and
# gacollbench (GA C) and armcibench (ARMCI-MPI), into OUTDIR, against the
# libraries that
# scripts/install-deps.sh --bench installs.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: build.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
mpicc -O2 "$here/gabench.c" -o "$1/gabench" $(ga-config --cppflags) $(ga-config --ldflags) $(ga-config --libs) -lgfortran -lm
mpicc -O2 "$here/armcibench.c" -o "$1/armcibench" -larmci-openmpi
mpicc -O2 "$here/gacollbench.c" -o "$1/gacollbench" $(ga-config --cppflags) $(ga-config --ldflags) $(ga-config --libs) -lgfortran -lm
