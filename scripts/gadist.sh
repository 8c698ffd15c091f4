#!/usr/bin/env bash
# Regenerates testdata/ga_distribution.tsv from the GA C library (needs
# scripts/install-deps.sh --bench): the default distributions goga must match.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mpicc -O2 "$here/scripts/gadist.c" -o "$tmp/gadist" $(ga-config --cppflags) $(ga-config --ldflags) $(ga-config --libs) -lgfortran -lm
{
  echo -e "# np\tdims\tchunk\tlo:hi of each rank (0-based, C order), from GA $(ga-config --version) NGA_Distribution"
  for np in 1 2 3 4 5 6 7 8 9 12 16; do "$here/mpirun.sh" -np "$np" "$tmp/gadist"; done
} > "$here/testdata/ga_distribution.tsv"
echo "wrote testdata/ga_distribution.tsv"
