#!/usr/bin/env bash
# mpirun.sh: run an MPI program with the flags this machine needs.
#   ./mpirun.sh -np 4 ./myprog [args...]
# It finds mpirun (Open MPI, or MPICH's mpiexec), passes every argument through,
# and adds:
#   --allow-run-as-root   only when run as root (Open MPI refuses root otherwise)
#   --oversubscribe       only when the ranks asked for outnumber the cores
# It sets OPENBLAS_NUM_THREADS=1 unless the caller set it, so that ranks sharing
# cores do not also start BLAS threads.
set -euo pipefail

launcher=${MPIRUN:-}
if [ -z "$launcher" ]; then
  for c in mpirun mpiexec mpirun.openmpi mpiexec.mpich; do
    if command -v "$c" >/dev/null 2>&1; then launcher=$(command -v "$c"); break; fi
  done
fi
if [ -z "$launcher" ]; then
  echo "mpirun.sh: no mpirun or mpiexec found; run scripts/install-deps.sh" >&2
  exit 127
fi

export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}

flavor=mpich
if "$launcher" --version 2>&1 | grep -qi 'open mpi\|open-mpi\|openrte'; then flavor=openmpi; fi

# Find the rank count among the arguments.
np=1
prev=
for a in "$@"; do
  case "$prev" in -np|-n|--np|-c) np=$a ;; esac
  case "$a" in -np=*|--np=*|-n=*) np=${a#*=} ;; esac
  prev=$a
done

extra=()
if [ "$flavor" = openmpi ]; then
  if [ "$(id -u)" = 0 ]; then extra+=(--allow-run-as-root); fi
  cores=$(nproc 2>/dev/null || echo 1)
  if [[ "$np" =~ ^[0-9]+$ ]] && [ "$np" -gt "$cores" ]; then extra+=(--oversubscribe); fi
fi

exec "$launcher" "${extra[@]}" "$@"
