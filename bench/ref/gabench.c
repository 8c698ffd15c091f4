/* gabench.c: the GA C library's figures for `make bench`, under the metric
 * names, sizes and methods of cmd/gabench, so that compare.sh can set the two
 * side by side in one run. It prints one TSV line per figure from rank 0:
 * metric, size (bytes for transfers, ranks for rates and sync, n for matrix
 * operations), value, unit. Run it on 2 ranks: rank 0 moves data into rank
 * 1's block while rank 1 waits in GA_Sync, so "remote" is another process
 * of the same node.
 *
 *   put/get/acc_contig_us, _MBps  1 to 2^20 doubles at the start of rank 1's
 *       block of a 1-D array (2^20 doubles per rank); every size of one
 *       operation before the next operation
 *   put/get/acc_2d_us, _MBps      a k x k patch (k = 4 ... 1024) inside rank
 *       1's 1024 x 1024 block of a 1024 x 1024*np array
 *   read_inc_aggregate_Mops       every rank NGA_Read_inc's a long on the last
 *   sync_us                       GA_Sync
 *   dgemm_GFlops, lu_solve_s      GA_Dgemm of ones, then GA_Lu_solve of
 *       A = 1 + n I with B = ones (n = 1000, 2000; default distribution)
 *   update_ghosts_us              GA_Update_ghosts, 2048 x 2048, width 1
 *   add_us ... select_elem_us, copy_patch_t_us, matmul_patch_GFlops  whole
 *       2048 x 2048 arrays, a transposed 1024 x 1024 NGA_Copy_patch, and
 *       GA_Matmul_patch of 1000 x 1000 patches at odd offsets
 *   diag_std_s                    all pairs of the (2, -1) matrix of order
 *       1000: GA_Diag_std_seq, as Debian's GA has no PeIGS and its parallel
 *       GA_Diag_std aborts
 *
 * The answers of read_inc, the solve and the eigenproblem are checked; a
 * wrong one is reported and the program exits with status 1.
 * Build (bench/ref/build.sh):
 *   mpicc -O2 gabench.c $(ga-config --cppflags --ldflags --libs) -lgfortran -lm */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "ga.h"
#include "macdecls.h"

static int me, np, failed;

static void emit(const char *metric, long size, double v, const char *unit) {
  if (me == 0) printf("%s\t%ld\t%.4g\t%s\n", metric, size, v, unit);
}

static void check(int ok, const char *what, double got, double want) {
  if (!ok) {
    fprintf(stderr, "gabench: rank %d: %s = %.17g, want %.17g\n", me, what, got, want);
    failed = 1;
  }
}

/* itersFor of cmd/gabench: about 0.2 s of transfer per figure. */
static int iters_for(long bytes) {
  long it = 200000000L / (bytes + 20000);
  return (int)(it < 5 ? 5 : it > 20000 ? 20000 : it);
}

static const char *ops[] = {"put", "get", "acc"};

/* transfer times it calls of operation op on g's patch lo..hi from rank 0,
 * between syncs, and prints latency and bandwidth under NAME. */
static void transfer(int g, int op, const char *name, long bytes, int *lo, int *hi, double *buf, int *ld) {
  double one = 1.0;
  int it = iters_for(bytes);
  GA_Sync();
  if (me == 0) {
    double t = MPI_Wtime();
    for (int i = 0; i < it; i++) {
      switch (op) {
      case 0: NGA_Put(g, lo, hi, buf, ld); break;
      case 1: NGA_Get(g, lo, hi, buf, ld); break;
      default: NGA_Acc(g, lo, hi, buf, ld, &one);
      }
    }
    t = MPI_Wtime() - t;
    char m[64];
    snprintf(m, sizeof m, "%s_%s_us", ops[op], name);
    emit(m, bytes, t / it * 1e6, "us");
    snprintf(m, sizeof m, "%s_%s_MBps", ops[op], name);
    emit(m, bytes, bytes * (double)it / t / 1e6, "MB/s");
  }
  GA_Sync();
}

enum { PER_RANK = 1 << 20, B = 1024 };

static void contiguous(double *buf) {
  int dims[1] = {PER_RANK * np}, chunk[1] = {PER_RANK};
  int g = NGA_Create(C_DBL, 1, dims, "contig", chunk);
  GA_Zero(g);
  static const long sizes[] = {1, 8, 64, 512, 4096, 32768, 262144, 1048576};
  for (int op = 0; op < 3; op++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int lo[1] = {PER_RANK}, hi[1] = {PER_RANK + (int)sizes[s] - 1}, ld[1] = {1};
      transfer(g, op, "contig", sizes[s] * 8, lo, hi, buf, ld);
    }
  GA_Destroy(g);
}

static void strided(double *buf) {
  int dims[2] = {B, B * np}, chunk[2] = {B, B};
  int g = NGA_Create(C_DBL, 2, dims, "strided", chunk);
  GA_Zero(g);
  static const int ks[] = {4, 16, 64, 256, 1024};
  for (int op = 0; op < 3; op++)
    for (size_t s = 0; s < sizeof ks / sizeof ks[0]; s++) {
      int k = ks[s];
      int lo[2] = {0, B}, hi[2] = {k - 1, B + k - 1}, ld[1] = {k};
      transfer(g, op, "2d", (long)k * k * 8, lo, hi, buf, ld);
    }
  GA_Destroy(g);
}

static void read_inc(void) {
  int dims[1] = {np}, chunk[1] = {1};
  int g = NGA_Create(C_LONG, 1, dims, "counter", chunk);
  GA_Zero(g);
  int at[1] = {np - 1}, ld[1] = {1};
  const int n = 20000;
  GA_Sync();
  double t = MPI_Wtime();
  for (int i = 0; i < n; i++) NGA_Read_inc(g, at, 1);
  GA_Sync();
  t = MPI_Wtime() - t;
  emit("read_inc_aggregate_Mops", np, (double)n * np / t / 1e6, "Mop/s");
  long total;
  NGA_Get(g, at, at, &total, ld);
  check(total == (long)n * np, "read_inc total", total, (double)n * np);
  GA_Destroy(g);
}

static void sync_latency(void) {
  const int n = 2000;
  GA_Sync();
  double t = MPI_Wtime();
  for (int i = 0; i < n; i++) GA_Sync();
  emit("sync_us", np, (MPI_Wtime() - t) / n * 1e6, "us");
}

/* add_diagonal adds v to the diagonal elements of this process's block of a. */
static void add_diagonal(int a, double v) {
  int lo[2], hi[2], ld[1];
  NGA_Distribution(a, me, lo, hi);
  if (lo[0] < 0 || hi[0] < lo[0]) return;
  double *p;
  NGA_Access(a, lo, hi, &p, ld);
  for (int i = lo[0]; i <= hi[0]; i++)
    if (i >= lo[1] && i <= hi[1]) p[(i - lo[0]) * ld[0] + (i - lo[1])] += v;
  NGA_Release_update(a, lo, hi);
}

/* linear_algebra: dgemm of ones on new n x n arrays, then the solve of
 * (1 + n I) x = ones, whose every x is 1/(2n). */
static void linear_algebra(int n) {
  double one = 1.0;
  int dims[2] = {n, n}, chunk[2] = {-1, -1};
  int a = NGA_Create(C_DBL, 2, dims, "A", chunk);
  int b = GA_Duplicate(a, "B"), c = GA_Duplicate(a, "C");
  GA_Fill(a, &one);
  GA_Fill(b, &one);
  GA_Sync();
  double t = MPI_Wtime();
  GA_Dgemm('N', 'N', n, n, n, 1.0, a, b, 0.0, c);
  GA_Sync();
  emit("dgemm_GFlops", n, 2.0 * n * (double)n * n / (MPI_Wtime() - t) / 1e9, "GF/s");
  GA_Destroy(b);
  GA_Destroy(c);
  add_diagonal(a, n);
  /* GA_Lu_solve takes B as Fortran's n x nrhs, which C's dims reverse */
  int rdims[2] = {1, n};
  int rhs = NGA_Create(C_DBL, 2, rdims, "rhs", chunk);
  GA_Fill(rhs, &one);
  GA_Sync();
  t = MPI_Wtime();
  GA_Lu_solve('N', a, rhs);
  GA_Sync();
  emit("lu_solve_s", n, MPI_Wtime() - t, "s");
  int at[2] = {0, 0}, ld[1] = {1};
  double x, want = 1.0 / (2.0 * n);
  NGA_Get(rhs, at, at, &x, ld);
  check(fabs(x - want) <= 1e-9, "lu_solve x[0]", x, want);
  GA_Destroy(rhs);
  GA_Destroy(a);
}

static void ghost_update(void) {
  const int n = 2048, reps = 50;
  int dims[2] = {n, n}, width[2] = {1, 1}, chunk[2] = {-1, -1};
  double one = 1.0;
  int g = NGA_Create_ghosts(C_DBL, 2, dims, width, "ghosts", chunk);
  GA_Fill(g, &one);
  GA_Sync();
  double t = MPI_Wtime();
  for (int i = 0; i < reps; i++) GA_Update_ghosts(g);
  GA_Sync();
  emit("update_ghosts_us", n, (MPI_Wtime() - t) / reps * 1e6, "us");
  GA_Destroy(g);
}

/* TIMED prints the mean time of reps runs of stmt between syncs. */
#define TIMED(name, size, reps, stmt)                          \
  do {                                                         \
    GA_Sync();                                                 \
    double t0_ = MPI_Wtime();                                  \
    for (int r_ = 0; r_ < (reps); r_++) { stmt; }              \
    GA_Sync();                                                 \
    emit(name, size, (MPI_Wtime() - t0_) / (reps) * 1e6, "us"); \
  } while (0)

static void collective_math(void) {
  const int n = 2048, reps = 10, m = 1000;
  int dims[2] = {n, n}, chunk[2] = {-1, -1};
  int a = NGA_Create(C_DBL, 2, dims, "ma", chunk);
  int b = GA_Duplicate(a, "mb"), c = GA_Duplicate(a, "mc");
  double one = 1.0, zero = 0.0, two = 2.0, half = 0.5;
  GA_Fill(a, &two);
  GA_Fill(b, &half);
  double dot = 0, norm = 0, max;
  int where[2];
  TIMED("add_us", n, reps, GA_Add(&one, a, &one, b, c));
  TIMED("ddot_us", n, reps, dot += GA_Ddot(a, b));
  TIMED("elem_multiply_us", n, reps, GA_Elem_multiply(a, b, c));
  TIMED("transpose_us", n, reps, GA_Transpose(a, c));
  TIMED("symmetrize_us", n, reps, GA_Symmetrize(c));
  TIMED("norm1_us", n, reps, GA_Norm1(a, &norm));
  TIMED("select_elem_us", n, reps, NGA_Select_elem(a, "max", &max, where));
  int alo[2] = {100, 200}, ahi[2] = {1123, 1223}, blo[2] = {900, 10}, bhi[2] = {1923, 1033};
  TIMED("copy_patch_t_us", 1024, reps, NGA_Copy_patch('T', a, alo, ahi, b, blo, bhi));
  /* every result is used, so that no call is optimized away */
  check(dot == reps * 0.5 * 2.0 * n * n, "ddot sum", dot, reps * 0.5 * 2.0 * n * n);
  check(norm > 0, "norm1 (positive)", norm, 0);
  check(max == 2.0, "select_elem max", max, 2.0);
  GA_Sync();
  double t = MPI_Wtime();
  GA_Matmul_patch('N', 'N', &one, &zero, a, 7, 7 + m - 1, 13, 13 + m - 1, b, 21, 21 + m - 1, 3, 3 + m - 1, c, 40,
                  40 + m - 1, 50, 50 + m - 1);
  GA_Sync();
  emit("matmul_patch_GFlops", m, 2.0 * m * (double)m * m / (MPI_Wtime() - t) / 1e9, "GF/s");
  GA_Destroy(a);
  GA_Destroy(b);
  GA_Destroy(c);
}

/* eigenproblem: the (2, -1) tridiagonal matrix of order n, whose smallest
 * eigenvalue is 2 - 2 cos(pi / (n + 1)). */
static void eigenproblem(void) {
  const int n = 1000;
  int dims[2] = {n, n}, chunk[2] = {-1, -1};
  int a = NGA_Create(C_DBL, 2, dims, "ea", chunk), v = GA_Duplicate(a, "ev");
  int lo[2], hi[2], ld[1];
  GA_Zero(a);
  NGA_Distribution(a, me, lo, hi);
  if (lo[0] >= 0 && hi[0] >= lo[0]) {
    double *p;
    NGA_Access(a, lo, hi, &p, ld);
    for (int i = lo[0]; i <= hi[0]; i++)
      for (int j = lo[1]; j <= hi[1]; j++) p[(i - lo[0]) * ld[0] + (j - lo[1])] = i == j ? 2 : abs(i - j) == 1 ? -1 : 0;
    NGA_Release_update(a, lo, hi);
  }
  double *ev = malloc(n * sizeof *ev);
  GA_Sync();
  double t = MPI_Wtime();
  GA_Diag_std_seq(a, v, ev);
  GA_Sync();
  emit("diag_std_s", n, MPI_Wtime() - t, "s");
  double want = 2 - 2 * cos(M_PI / (n + 1));
  check(fabs(ev[0] - want) <= 1e-9, "diag_std eigenvalue 0", ev[0], want);
  free(ev);
  GA_Destroy(a);
  GA_Destroy(v);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 32000000, 32000000);
  me = GA_Nodeid();
  np = GA_Nnodes();
  if (np < 2) {
    if (me == 0) fprintf(stderr, "gabench: run with 2 or more ranks\n");
    GA_Terminate();
    MPI_Finalize();
    return 1;
  }
  double *buf = malloc(PER_RANK * sizeof *buf);
  for (int i = 0; i < PER_RANK; i++) buf[i] = i;
  contiguous(buf);
  strided(buf);
  free(buf);
  read_inc();
  sync_latency();
  linear_algebra(1000);
  linear_algebra(2000);
  ghost_update();
  collective_math();
  eigenproblem();
  fflush(stdout);
  int any;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  GA_Terminate();
  MPI_Finalize();
  return any;
}
