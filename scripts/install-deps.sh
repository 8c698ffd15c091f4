#!/usr/bin/env bash
# install-deps.sh: install what goga needs to build, test and run. Idempotent:
# it installs only what is missing, and does nothing when all is there.
#
#   scripts/install-deps.sh            MPI (Open MPI), ScaLAPACK, OpenBLAS, gfortran, pkg-config,
#                                      parallel HDF5 and h5py, and the host aliases of the tiers of
#                                      simulated nodes (nodeb, nodec, noded)
#   scripts/install-deps.sh --bench    also the C reference libraries the benchmarks compare with
#   scripts/install-deps.sh --mpich    also MPICH, its ScaLAPACK and HDF5, beside Open MPI (build with
#                                      -tags mpich); Open MPI stays the default mpirun and mpicc
#
# On Debian or Ubuntu as root it uses apt-get. Anywhere else it prints exactly
# what to install and exits non-zero.
set -euo pipefail

mpi=openmpi
bench=0
for a in "$@"; do
  case "$a" in
    --bench) bench=1 ;;
    --mpich) mpi=mpich ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown option $a" >&2; exit 2 ;;
  esac
done

pkgs=(libopenmpi-dev openmpi-bin libscalapack-openmpi-dev)
if [ "$mpi" = mpich ]; then
  pkgs+=(libmpich-dev mpich libscalapack-mpich-dev libhdf5-mpich-dev)
fi
pkgs+=(libopenblas-dev gfortran pkg-config make python3)
# Parallel HDF5 for h5/, and h5py for its tests (they read what goga writes).
pkgs+=(libhdf5-openmpi-dev python3-h5py)
if [ "$bench" = 1 ]; then
  # iproute2: ss, with which scripts/flood.py finds a job's doorbells.
  pkgs+=(libglobalarrays-dev libarmci-mpi-dev iproute2)
fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps.sh: this is not a Debian/Ubuntu system. Install the equivalents of:" >&2
    echo "  ${missing[*]}" >&2
    echo "(an MPI implementation with its headers and mpirun, ScaLAPACK and parallel HDF5 for it, OpenBLAS, gfortran, pkg-config, Python 3 with h5py)" >&2
    exit 1
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "install-deps.sh: missing packages; as root run:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "install-deps.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then
    echo "install-deps.sh: Go is at /usr/local/go/bin; add it to PATH" >&2
  else
    echo "install-deps.sh: Go is not installed; install Go 1.26 or newer from go.dev/dl" >&2
  fi
  exit 1
fi

# Go modules, so that the build needs no network later.
here=$(cd "$(dirname "$0")/.." && pwd)
(cd "$here" && go mod download)

# The tiers of simulated nodes (internal/mpitest's TwoNodes and Placement)
# need their nodes' host names to resolve: nodeb for the two-node tier,
# nodec and noded too for the four-node tier. Add each missing alias when
# root.
for alias in 127.0.0.2:nodeb 127.0.0.3:nodec 127.0.0.4:noded; do
  addr=${alias%%:*} name=${alias#*:}
  if ! getent hosts "$name" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && [ -w /etc/hosts ]; then
      echo "$addr $name" >>/etc/hosts
      echo "install-deps.sh: added '$addr $name' to /etc/hosts for the tests on simulated nodes"
    else
      echo "install-deps.sh: the tests on simulated nodes need '$addr $name' in /etc/hosts (as root); those that use it will be skipped" >&2
    fi
  fi
done
