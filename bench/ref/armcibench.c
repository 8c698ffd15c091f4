/* armcibench.c: ARMCI-MPI's figures for `make bench-armci`, under the metric
 * names, sizes and methods of cmd/armcibench, so that compare.sh can set the
 * two side by side in one run. It prints one TSV line per figure from rank 0:
 * metric, size (bytes for transfers, ranks for rates and the barrier),
 * value, unit. Run it on 2 ranks: rank 0 moves data into rank 1's part of
 * the segment, and ends each figure's loop with ARMCI_Fence.
 *
 *   armci_put/get/acc_contig_us, _MBps  1 to 2^20 doubles at the start of
 *       rank 1's 8 MiB; every size of one operation before the next
 *   armci_put/get/acc_2d_us, _MBps      a k x k block of doubles (k = 4 ...
 *       1024) out of a 1024-wide row-major segment
 *   armci_fetch_add_aggregate_Mops      every rank ARMCI_Rmw's a long on the last
 *   armci_barrier_us                    ARMCI_Barrier
 *
 * The fetch-and-add total is checked; a wrong one is reported and the
 * program exits with status 1.
 * Build (bench/ref/build.sh): mpicc -O2 armcibench.c -larmci-openmpi */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "armci.h"

static int me, np;

static void emit(const char *metric, long size, double v, const char *unit) {
  if (me == 0) printf("%s\t%ld\t%.4g\t%s\n", metric, size, v, unit);
}

/* itersFor of cmd/armcibench: about 0.2 s of transfer per figure. */
static int iters_for(long bytes) {
  long it = 200000000L / (bytes + 20000);
  return (int)(it < 5 ? 5 : it > 20000 ? 20000 : it);
}

static const char *ops[] = {"put", "get", "acc"};

/* report prints latency and bandwidth of it transfers of bytes in t seconds. */
static void report(int op, const char *shape, long bytes, int it, double t) {
  char m[64];
  snprintf(m, sizeof m, "armci_%s_%s_us", ops[op], shape);
  emit(m, bytes, t / it * 1e6, "us");
  snprintf(m, sizeof m, "armci_%s_%s_MBps", ops[op], shape);
  emit(m, bytes, bytes * (double)it / t / 1e6, "MB/s");
}

enum { PER_RANK = 1 << 20, WIDTH = 1024 };

static void contiguous(void **seg, double *buf) {
  static const long sizes[] = {1, 8, 64, 512, 4096, 32768, 262144, 1048576};
  double one = 1.0;
  for (int op = 0; op < 3; op++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int bytes = (int)sizes[s] * 8, it = iters_for(bytes);
      ARMCI_Barrier();
      if (me == 0) {
        double t = MPI_Wtime();
        for (int i = 0; i < it; i++) {
          switch (op) {
          case 0: ARMCI_Put(buf, seg[1], bytes, 1); break;
          case 1: ARMCI_Get(seg[1], buf, bytes, 1); break;
          default: ARMCI_Acc(ARMCI_ACC_DBL, &one, buf, seg[1], bytes, 1);
          }
        }
        ARMCI_Fence(1);
        report(op, "contig", bytes, it, MPI_Wtime() - t);
      }
      ARMCI_Barrier();
    }
}

static void strided(void **seg, double *buf) {
  static const int ks[] = {4, 16, 64, 256, 1024};
  double one = 1.0;
  for (int op = 0; op < 3; op++)
    for (size_t s = 0; s < sizeof ks / sizeof ks[0]; s++) {
      int k = ks[s], bytes = k * k * 8, it = iters_for(bytes);
      int local[1] = {k * 8}, remote[1] = {WIDTH * 8}, count[2] = {k * 8, k};
      ARMCI_Barrier();
      if (me == 0) {
        double t = MPI_Wtime();
        for (int i = 0; i < it; i++) {
          switch (op) {
          case 0: ARMCI_PutS(buf, local, seg[1], remote, count, 1, 1); break;
          case 1: ARMCI_GetS(seg[1], remote, buf, local, count, 1, 1); break;
          default: ARMCI_AccS(ARMCI_ACC_DBL, &one, buf, local, seg[1], remote, count, 1, 1);
          }
        }
        ARMCI_Fence(1);
        report(op, "2d", bytes, it, MPI_Wtime() - t);
      }
      ARMCI_Barrier();
    }
}

/* fetch_add returns 0 when the counter ends at n per rank. */
static int fetch_add(void) {
  const int n = 20000, last = np - 1;
  void **cnt = malloc(np * sizeof *cnt);
  ARMCI_Malloc(cnt, sizeof(long));
  ARMCI_Access_begin(cnt[me]);
  *(long *)cnt[me] = 0;
  ARMCI_Access_end(cnt[me]);
  ARMCI_Barrier();
  long old;
  double t = MPI_Wtime();
  for (int i = 0; i < n; i++) ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, cnt[last], 1, last);
  ARMCI_Barrier();
  emit("armci_fetch_add_aggregate_Mops", np, (double)n * np / (MPI_Wtime() - t) / 1e6, "Mop/s");
  int bad = 0;
  if (me == last) {
    ARMCI_Access_begin(cnt[me]);
    long total = *(long *)cnt[me];
    ARMCI_Access_end(cnt[me]);
    if (total != (long)n * np) {
      fprintf(stderr, "armcibench: fetch-and-add total %ld, want %ld\n", total, (long)n * np);
      bad = 1;
    }
  }
  ARMCI_Free(cnt[me]);
  free(cnt);
  return bad;
}

static void barrier(void) {
  const int n = 2000;
  ARMCI_Barrier();
  double t = MPI_Wtime();
  for (int i = 0; i < n; i++) ARMCI_Barrier();
  emit("armci_barrier_us", np, (MPI_Wtime() - t) / n * 1e6, "us");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ARMCI_Init();
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np < 2) {
    if (me == 0) fprintf(stderr, "armcibench: run with 2 or more ranks\n");
    ARMCI_Finalize();
    MPI_Finalize();
    return 1;
  }
  void **seg = malloc(np * sizeof *seg);
  ARMCI_Malloc(seg, PER_RANK * sizeof(double));
  double *buf = ARMCI_Malloc_local(PER_RANK * sizeof(double));
  for (int i = 0; i < PER_RANK; i++) buf[i] = i;
  contiguous(seg, buf);
  strided(seg, buf);
  int bad = fetch_add();
  barrier();
  fflush(stdout);
  int any;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  ARMCI_Free_local(buf);
  ARMCI_Free(seg[me]);
  free(seg);
  ARMCI_Finalize();
  MPI_Finalize();
  return any;
}
