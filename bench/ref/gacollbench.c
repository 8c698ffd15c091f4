/* gacollbench.c: GA C's collectives of few bytes, under the metric names of
 * `cmd/gabench -collectives` (make bench-collectives sets the two side by
 * side), each the mean of N calls on every rank (N/10 for create and
 * destroy), in microseconds, size the
 * number of ranks: GA_Brdcst of 8 bytes from rank 0 (brdcst_8_us); GA's
 * Gop of one element of every type and operation it defines
 * (gop_T_OP_us: T i int, l long, f float, d double, c single complex,
 * z double complex; OP sum, prod, max, min, absmax, absmin, or); GA_Sync
 * (sync_us); NGA_Create and GA_Destroy of a 100 x 100 array of doubles
 * (create_destroy_us); Brdcst, Dgop and Sync on a processor group of every rank (pgroup_*); and,
 * as limits, the MPI calls that GA's ride on over ARMCI-MPI: MPI_Bcast of 8
 * bytes, MPI_Allreduce of one double, MPI_Barrier
 * (mpi_*_limit_us). Build:
 *   mpicc -O2 gacollbench.c $(ga-config --cppflags --ldflags --libs) -lgfortran -lm */
#include <mpi.h>
#include <stdio.h>
#include "ga.h"
#include "ga-mpi.h"
#include "macdecls.h"

static int me, np;
enum { N = 2000 };

static void emit(const char *metric, double t) {
  if (me == 0) printf("%s\t%d\t%.4g\tus\n", metric, np, t * 1e6);
}

/* TIMES prints the mean time of n runs of stmt under metric, after a
 * sync; TIME of N runs. */
#define TIMES(metric, n, stmt)                              \
  do {                                                      \
    GA_Sync();                                              \
    double t0_ = MPI_Wtime();                               \
    for (int i_ = 0; i_ < (n); i_++) { stmt; }              \
    emit(metric, (MPI_Wtime() - t0_) / (n));                \
  } while (0)
#define TIME(metric, stmt) TIMES(metric, N, stmt)

static char *ops[] = {"+", "*", "max", "min", "absmax", "absmin", "or"};
static const char *names[] = {"sum", "prod", "max", "min", "absmax", "absmin", "or"};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  me = GA_Nodeid();
  np = GA_Nnodes();
  char metric[64];
  double d = 1;
  TIME("brdcst_8_us", GA_Brdcst(&d, 8, 0));
  for (int k = 0; k < 7; k++) {
    int real = k < 6, complex = k < 2;
    int i = 1;
    long l = 1;
    float f = 1;
    SingleComplex c = {1, 0};
    DoubleComplex z = {1, 0};
    snprintf(metric, sizeof metric, "gop_i_%s_us", names[k]);
    TIME(metric, GA_Igop(&i, 1, ops[k]));
    snprintf(metric, sizeof metric, "gop_l_%s_us", names[k]);
    TIME(metric, GA_Lgop(&l, 1, ops[k]));
    if (!real) continue;
    snprintf(metric, sizeof metric, "gop_f_%s_us", names[k]);
    TIME(metric, GA_Fgop(&f, 1, ops[k]));
    snprintf(metric, sizeof metric, "gop_d_%s_us", names[k]);
    TIME(metric, GA_Dgop(&d, 1, ops[k]));
    if (!complex) continue;
    snprintf(metric, sizeof metric, "gop_c_%s_us", names[k]);
    TIME(metric, GA_Cgop(&c, 1, ops[k]));
    snprintf(metric, sizeof metric, "gop_z_%s_us", names[k]);
    TIME(metric, GA_Zgop(&z, 1, ops[k]));
  }
  TIME("sync_us", GA_Sync());
  int cdims[2] = {100, 100};
  TIMES("create_destroy_us", N / 10, GA_Destroy(NGA_Create(C_DBL, 2, cdims, "t", NULL)));
  int list[np];
  for (int r = 0; r < np; r++) list[r] = r;
  int p = GA_Pgroup_create(list, np);
  TIME("pgroup_brdcst_8_us", GA_Pgroup_brdcst(p, &d, 8, 0));
  TIME("pgroup_dgop_sum_us", GA_Pgroup_dgop(p, &d, 1, "+"));
  TIME("pgroup_sync_us", GA_Pgroup_sync(p));
  MPI_Comm w = GA_MPI_Comm();
  TIME("mpi_bcast_8_limit_us", MPI_Bcast(&d, 8, MPI_BYTE, 0, w));
  TIME("mpi_allreduce_8_limit_us", MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_SUM, w));
  TIME("mpi_barrier_limit_us", MPI_Barrier(w));
  GA_Pgroup_destroy(p);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
