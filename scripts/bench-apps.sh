#!/usr/bin/env bash
# bench-apps.sh GA_SRC (make bench-apps GA_SRC=...): time to solution of the
# example applications (examples/) against their GA originals
# (GA_SRC/global/examples), on the same input, process count and machine,
# run alternately by bench/ref/compare.sh (medians of BENCH_RUNS runs each),
# on 2 ranks of one node and on 1 + 1 and 2 + 2 ranks of the two nodes
# simulated on this machine (placed as scripts/bench-2node.sh places them).
#
# The originals are copied from GA_SRC into bin/bench-apps/, given the
# fixes without which they do not run or do not compute the same thing
# (each explained where it is applied, below), and built against Debian's
# GA with mpicc and mpifort. Where an original reads an input file, it is
# written from the same parameters the Go program is given.
#
# Environment: APPS (the applications, default all five), SIZE (full, the
# sizes to report, or small, a smoke run of a second or so each),
# BENCH_RUNS (default 5), LIMIT (seconds a run may take before it is
# reported as not finished, default 300).
#
# Output (stdout, also bin/bench-apps.tsv; progress on stderr):
# compare.sh's columns with the application and the layout in front,
#
#	app layout metric size goga original unit ratio
#
# metrics total_s (wall time of the whole mpirun, start-up included),
# per_iter_ms (that divided by the iterations) and iterations; ratio is
# original/goga for times (above 1: goga is faster) and goga/original for
# iterations (1: the same work). A run that failed or did not finish in
# LIMIT seconds is a line "# app layout side: ..." and an application that
# has no row for a layout gets the line "app layout - - - - - none" with the
# reason. scripts/bench-apps-md.awk turns the output into a markdown table.
#
# bench-apps.sh --run APP SIDE LAYOUT is one run, the command compare.sh
# alternates.
set -euo pipefail
ga=${1:-}
if [ -n "$ga" ] && [ -d "$ga" ]; then ga=$(cd "$ga" && pwd); fi
cd "$(dirname "$0")/.."
top=$(pwd)
out=$top/bin/bench-apps
size=${SIZE:-full}
limit=${LIMIT:-300}
export OPENBLAS_NUM_THREADS=1

# params APP sets, for the size asked for: label (the problem, for the
# table), goga_args, orig_args, iters (the iterations when both programs
# run a fixed number; empty when they stop on convergence and print it).
params() {
  label= goga_args= orig_args= iters=
  case "$1:$size" in
  # Beryllium atoms 4.0 apart on a line, as in be.inpt and be16.inpt;
  # 5 atoms converge in 17 iterations, with damping, in both
  # (examples/README.md).
  scf:full) natoms=5 ;;
  scf:small) natoms=2 ;;
  # The 5-point Laplacian of an m × m grid, b = 1, x₀ = 1, preconditioned
  # by 10/a_ii, until sqrt(rᵀM⁻¹r / r₀ᵀM⁻¹r₀) < 1e-4 (the original's
  # stopping rule, cg's default -tol).
  cg:full) m=500 ;;
  cg:small) m=40 ;;
  # lennard.c's own input, 256 particles in blocks of 64 at time step
  # 0.004, for a fifth of its time (2 units of equilibration and 4 of
  # production, of its 10 and 20): the original's 7500 steps would take
  # it about 15 minutes on 2 + 2 ranks.
  lennardjones:full) natoms=256 block=64 equil=500 steps=1000 ;;
  lennardjones:small) natoms=256 block=64 equil=250 steps=250 ;;
  # The original's cavity, 129 points a side over 256, for a fifth of its
  # 5000 steps; the small one keeps its spacing of 2 (τ = 1.25).
  boltzmann:full) n=129 xmax=256 steps=1000 ;;
  boltzmann:small) n=33 xmax=64 steps=200 ;;
  # md_lj.in's 8 clusters of 2 to 9 atoms on groups of one process, for
  # 50000 steps each of its 10⁹: after step 50000 the original starts
  # moves of the confining sphere that the port leaves out.
  md_cluster:full) steps=50000 ;;
  md_cluster:small) steps=2000 ;;
  *) echo "bench-apps.sh: no parameters for $1 at SIZE=$size (SIZE is full or small)" >&2; return 1 ;;
  esac
  case $1 in
  scf)
    label="Be$natoms"
    goga_args="-input be.inpt"
    ;;
  cg)
    label="${m}x$m"
    # Printing every iteration would time the printing: once at the end.
    goga_args="-m $m -every $((m * m))"
    orig_args="$((m * m)) $((5 * m * m - 4 * m)) lap.dat"
    ;;
  lennardjones)
    label="$natoms atoms, $((equil + steps)) steps"
    goga_args="-n $natoms -block $block -equil $equil -steps $steps -every 250"
    iters=$((equil + steps))
    ;;
  boltzmann)
    label="${n}x$n, $steps steps"
    goga_args="-n $n -xmax $xmax -steps $steps -every 200"
    iters=$steps
    ;;
  md_cluster)
    label="8 clusters, $steps steps"
    goga_args="-steps $steps -equil 1000"
    iters=$steps
    ;;
  esac
}

# rundir APP: where both programs of APP run, at this size.
rundir() { echo "$out/$1-$size"; }

# One run: the figures as compare.sh reads them (metric, size, value, unit).
if [ "${1:-}" = --run ]; then
  app=$2 side=$3 layout=$4
  params "$app"
  dir=$(rundir "$app")
  case $layout in
  2) where=() ;;
  1+1) read -r -a where <<<"$TWO_ARGS" ;;
  2+2) read -r -a where <<<"$FOUR_ARGS" ;;
  *) echo "bench-apps.sh: layout $layout is not 2, 1+1 or 2+2" >&2; exit 2 ;;
  esac
  np=2
  [ "$layout" = 2+2 ] && np=4
  if [ "$side" = goga ]; then
    cmd=("$out/goga-$app" $goga_args)
  else
    cmd=("$dir/orig.x" $orig_args)
  fi
  log="$dir/$side-$layout.log"
  # Once a program has not finished in LIMIT seconds on a layout, its
  # further runs there would only wait as long again.
  if grep -q "^# $app $layout ${side/orig/original}: status 124" "$out/notes" 2>/dev/null; then
    exit 0
  fi
  cd "$dir"
  t0=$(date +%s.%N)
  rc=0
  timeout -k 10 "$limit" "$top/mpirun.sh" -np "$np" "${where[@]}" "${cmd[@]}" >"$log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  if [ "$rc" != 0 ]; then
    note="# $app $layout ${side/orig/original}: status $rc"
    [ "$rc" = 124 ] && note+=" (not finished in $limit s)"
    echo "$note, see $log" | tee -a "$out/notes" >&2
    exit 0
  fi
  n=$iters
  if [ -z "$n" ]; then
    case $app in
    scf) n=$(grep -o 'iter= *[0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' || true) ;;
    cg) n=$(grep -o 'in [0-9]* iterations' "$log" | tail -n 1 | grep -o '[0-9]\+' || true) ;;
    esac
  fi
  if [ -z "$n" ] || [ "$n" = 0 ]; then
    echo "# $app $layout ${side/orig/original}: no iteration count in $log" | tee -a "$out/notes" >&2
    exit 0
  fi
  awk -v t0="$t0" -v t1="$t1" -v n="$n" -v s="$label" 'BEGIN {
    t = t1 - t0
    printf "total_s\t%s\t%.4f\ts\n", s, t
    printf "per_iter_ms\t%s\t%.5g\tms\n", s, 1000 * t / n
    printf "iterations\t%s\t%d\titers\n", s, n
  }'
  exit 0
fi

if [ -z "$ga" ] || [ ! -d "$ga/global/examples" ] || [ ! -f "$ga/global/testing/mp3.fh" ]; then
  cat >&2 <<EOF
bench-apps.sh: needs the Global Arrays source tree, whose global/examples
hold the originals (and global/testing/mp3.fh, which the Fortran ones
include): make bench-apps GA_SRC=/path/to/ga. Get it with

    git clone https://github.com/GlobalArrays/ga

(the goga examples follow commit dd4034712e5ecc88d08a8c0d4ef56a45230660e4).
EOF
  exit 2
fi
apps=${APPS:-scf cg lennardjones boltzmann md_cluster}
runs=${BENCH_RUNS:-5}
mkdir -p "$out"
rm -f "$out/notes"

# sub FILE OLD NEW: replaces the one occurrence of OLD in FILE by NEW, and
# fails if OLD is not there exactly once (another version of GA).
sub() {
  python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"bench-apps.sh: {path}: want one {old!r}, found {text.count(old)}")
open(path, "w").write(text.replace(old, new))
PY
}

ldga=$(ga-config --ldflags --libs)
fortran="$(ga-config --f77) $(ga-config --fflags) -O2 -fallow-argument-mismatch -DMSG_COMMS_MPI"
cflags="-O2 -DMSG_COMMS_MPI -DHAVE_STDIO_H=1 -DHAVE_STDLIB_H=1 -DHAVE_UNISTD_H=1 -DHAVE_MATH_H=1 -DHAVE_STRING_H=1 $(ga-config --cppflags)"

# build_orig APP: copies APP's original into its run directory, applies the
# fixes, writes its input and builds orig.x there.
build_orig() {
  local app=$1 dir
  dir=$(rundir "$app")
  rm -rf "$dir"
  mkdir -p "$dir"
  case $app in
  scf)
    cp "$ga"/global/examples/scf/{scf.F,input.F,integ.F,output.F,timer.F,cscf.h} "$ga"/global/testing/{mp3.fh,mp3def.fh} "$dir"
    # mpi_finalize takes the error argument; without it the call
    # passes no address and MPI writes the status through garbage.
    sub "$dir/scf.F" "      call mpi_finalize
" "      call mpi_finalize(ierr)
"
    awk -v n="$natoms" 'BEGIN { print n; print ""; for (i = 0; i < n; i++) printf "4 %7.3f  0.000 0.000\n", 4 * i }' >"$dir/be.inpt"
    (cd "$dir" && $fortran -o orig.x scf.F input.F integ.F output.F timer.F $ldga)
    ;;
  cg)
    cp "$ga"/global/examples/conjugate_gradient/{ga_cg.c,matvecmul.c,read_input.c,computeloops.F,finclude.h} "$dir"
    # read_input.c gives each process the rows from its first to its
    # last, the next process's first, exclusive, and every loop runs to
    # last−1; but the last process's end was set to na−1, so the matrix's
    # last row was never computed (and δ₀ changed with the process count).
    sub "$dir/read_input.c" "alllastrow[nproc-1]=na-1;" "alllastrow[nproc-1]=na;"
    # The loops read each row's end from the row pointer after it, which
    # for a process's last row lies past its part of ROW (and for the
    # matrix's last, past ROW): ROW gets the na+1 pointers and each process
    # Gets its rows' pointers and the one after them.
    sub "$dir/read_input.c" 'ridx = NGA_Create_irreg(MT_C_INT, 1, &na , "ROW", &nproc,allfirstrow);' \
      '{ int nap1 = na + 1; ridx = NGA_Create_irreg(MT_C_INT, 1, &nap1, "ROW", &nproc, allfirstrow); }'
    sub "$dir/read_input.c" "NGA_Put(ridx,&lo,&hi,irow,&hi);" "hi = na; NGA_Put(ridx,&lo,&hi,irow,&hi); hi = na - 1;"
    sub "$dir/ga_cg.c" "    NGA_Distribution(ridx,me,&lo,&hi);
    NGA_Access(ridx,&lo,&hi,&myrp,&zero);" "    NGA_Distribution(rvec,me,&lo,&hi);
    { int rlo = lo, rhi = hi + 1, ld = 1; myrp = malloc(sizeof(int) * (hi - lo + 2)); NGA_Get(ridx, &rlo, &rhi, myrp, &ld); }"
    # matvecmul.c's buffer for the whole vector is never allocated (its
    # GA_Malloc_local is commented out), and the final check crashes.
    sub "$dir/read_input.c" "/* ga_vecptr = (double *)GA_Malloc_local(na*sizeof(double)); */" \
      "ga_vecptr = (double *)malloc(na*sizeof(double));"
    # Each iteration Gets the whole of d over the local part that the
    # previous iteration updated, so d never changes and the method ends in
    # NaN after about 10 iterations: the new d is Put (and synced) first.
    sub "$dir/ga_cg.c" "    for(i=0;i<nit && deltanew>(1e-8*delta0);i++){
" "    for(i=0;i<nit && deltanew>(1e-8*delta0);i++){
      NGA_Put(dvec,&lo,&hi,dvecptr,&hi);
      GA_Sync();
"
    # x is updated in the local copy only; the final check reads its
    # global array, so it is Put there first.
    sub "$dir/ga_cg.c" "    GA_Zero(qvec);
    GA_Zero(rvec);
    matvecmul(" "    NGA_Put(xvec,&lo,&hi,xvecptr,&hi);
    GA_Sync();
    GA_Zero(qvec);
    GA_Zero(rvec);
    matvecmul("
    # f_matvecmul's row sum starts undefined, and it writes a line per
    # element of A, which would time the printing.
    sub "$dir/computeloops.F" "      k=0
      l=1
      do i=firstrow, lastrow-1
        k=k+1
        write(6,*) k,myrowlist(k),myrowlist(k+1)
" "      k=0
      l=1
      tmprowsum=0
      do i=firstrow, lastrow-1
        k=k+1
"
    sub "$dir/computeloops.F" "          write(6,*) i,j,k,myrowlist(k+1),l
" ""
    # The input: A (nz doubles), the na+1 row pointers and nz+1 columns
    # (32-bit, 1-based), b (na+1 doubles), as read_input.c reads them.
    python3 - "$m" "$dir/lap.dat" <<'PY'
import struct, sys
m, path = int(sys.argv[1]), sys.argv[2]
val, col, ptr = [], [], [1]
for i in range(m):
    for j in range(m):
        r = i * m + j
        for c, v, inside in ((r - m, -1.0, i > 0), (r - 1, -1.0, j > 0), (r, 4.0, True),
                             (r + 1, -1.0, j < m - 1), (r + m, -1.0, i < m - 1)):
            if inside:
                val.append(v)
                col.append(c + 1)
        ptr.append(len(val) + 1)
na, nz = m * m, len(val)
with open(path, "wb") as f:
    f.write(struct.pack(f"{nz}d", *val))
    f.write(struct.pack(f"{na + 1}i", *ptr))
    f.write(struct.pack(f"{nz + 1}i", *col, 0))
    f.write(struct.pack(f"{na + 1}d", *([1.0] * (na + 1))))
PY
    (cd "$dir" &&
      mpicc $cflags "-DF77_FUNC_(name,NAME)=name ## _" -c ga_cg.c matvecmul.c read_input.c &&
      $fortran -c computeloops.F &&
      mpicc -o orig.x ga_cg.o matvecmul.o read_input.o computeloops.o $ldga -lgfortran -lm)
    ;;
  lennardjones)
    cp "$ga"/global/examples/lennard-jones/lennard.c "$dir"
    # Its sizes and times are compiled in.
    sub "$dir/lennard.c" "#define NATOMS            256" "#define NATOMS            $natoms"
    sub "$dir/lennard.c" "#define BLOCK_SIZE        64" "#define BLOCK_SIZE        $block"
    sub "$dir/lennard.c" "#define EQUILIBRIUM_TIME  10.0" "#define EQUILIBRIUM_TIME  ($equil * 0.004)"
    sub "$dir/lennard.c" "#define SIMULATION_TIME   20.0" "#define SIMULATION_TIME   ($steps * 0.004)"
    (cd "$dir" && mpicc $cflags -o orig.x lennard.c $ldga -lgfortran -lm)
    ;;
  boltzmann)
    cp "$ga"/global/examples/boltzmann/{*.F,common} "$ga"/global/testing/{mp3.fh,mp3def.fh} "$dir"
    # Its sizes and step count are compiled in.
    sub "$dir/common" "NSIZE=129" "NSIZE=$n"
    sub "$dir/setup.F" "nsteps = 5000" "nsteps = $steps"
    sub "$dir/setup.F" "xmax = 256.0" "xmax = $xmax"
    (cd "$dir" && $fortran -o orig.x ./*.F $ldga)
    ;;
  md_cluster)
    cp "$ga"/global/examples/md_cluster/{*.F,common.fh,md_lj.in,atom.inp} "$dir"
    # mpi_finalize takes the error argument, as in scf.F.
    sub "$dir/grp_sim.F" "      call mpi_finalize()
" "      call mpi_finalize(ierr)
"
    # Its steps, on md_lj.in's first line, and the averages from step
    # 1000, on its eighth (the goga program's -equil).
    sub "$dir/md_lj.in" "1000000000, 0.01, 2, -44933
" "$steps, 0.01, 2, -44933
"
    sub "$dir/md_lj.in" "50000,1000000,2000000
" "50000,1000,2000000
"
    (cd "$dir" && $fortran -DMPI -o orig.x ./*.F $ldga)
    ;;
  *)
    echo "bench-apps.sh: no original known for $app" >&2
    return 1
    ;;
  esac
}

for app in $apps; do
  [ -d "examples/$app" ] || { echo "bench-apps.sh: examples/$app does not exist" >&2; exit 2; }
  params "$app"
  go build -o "$out/goga-$app" "./examples/$app"
  # The compilers' warnings about the originals' old Fortran go to a log.
  if ! build_orig "$app" >"$out/build-$app.log" 2>&1; then
    cat "$out/build-$app.log" >&2
    echo "bench-apps.sh: building the original of $app failed" >&2
    exit 1
  fi
done

TWO_ARGS=$(go run ./internal/mpitest/twonodeargs -rankfile "$out/2node-rankfile" 2 | tr '\n' ' ')
FOUR_ARGS=$(go run ./internal/mpitest/twonodeargs 4 | tr '\n' ' ')
export TWO_ARGS FOUR_ARGS SIZE=$size LIMIT=$limit

echo "# $(date -u +%F) SIZE=$size BENCH_RUNS=$runs LIMIT=$limit GA_SRC=$ga ($(git -C "$ga" rev-parse HEAD 2>/dev/null || echo 'not a git tree'))" | tee "$top/bin/bench-apps.tsv"
printf 'app\tlayout\tmetric\tsize\tgoga\toriginal\tunit\tratio\n' | tee -a "$top/bin/bench-apps.tsv"
for app in $apps; do
  for layout in 2 1+1 2+2; do
    echo "== $app on $layout ranks: $runs alternating runs" >&2
    res=$(bench/ref/compare.sh -n "$runs" "scripts/bench-apps.sh --run $app goga $layout" "scripts/bench-apps.sh --run $app orig $layout" | tail -n +2)
    if [ -z "$res" ]; then
      why=$(grep "^# $app $layout " "$out/notes" 2>/dev/null | head -n 1 | sed 's/, see .*//; s/^# [^ ]* [^ ]* //' || true)
      printf '%s\t%s\t-\t-\t-\t-\t-\tnone: %s\n' "$app" "$layout" "${why:-no run of both finished}" | tee -a "$top/bin/bench-apps.tsv"
      continue
    fi
    sed "s/^/$app\t$layout\t/" <<<"$res" | tee -a "$top/bin/bench-apps.tsv"
  done
done
if [ -s "$out/notes" ]; then tee -a "$top/bin/bench-apps.tsv" <"$out/notes"; fi
