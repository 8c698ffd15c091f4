/* gaextrabench.c: GA C's figures for what bench/ref/gabench.c does not
 * time, under the metric names of `cmd/gabench -extra` (make bench-2node sets
 * the two side by side). Rank 0 locks and unlocks the mutex the last rank
 * hosts, alone (lock_unlock_us); every rank updates a counter on the last
 * rank under it: lock, get, add one, put, unlock (locked_counter_us, per
 * update of one rank); every rank creates and destroys a 100 x 100 array of
 * doubles (create_destroy_us); GA_Brdcst of 8 bytes from rank 0 and GA_Dgop
 * of one double (brdcst_8_us, dgop_8_us); rank 0 scatters and gathers 1000
 * elements spread over a 1000 x 1000 array (scatter_1000_us,
 * gather_1000_us); rank 0 gets 8 bytes from the last rank after 5 ms
 * without requests, the median of 15, while the last rank waits in GA_Sync
 * (get_after_wait_us) and while it computes for 20 ms outside GA and MPI
 * (get_from_busy_us); then 8 gets 1 ms apart while the last rank computes
 * for 40 ms, the mean over 5 rounds (get_spaced_from_busy_us). Build:
 *   mpicc -O2 gaextrabench.c $(ga-config --cppflags --ldflags --libs) -lgfortran -lm */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ga.h"
#include "macdecls.h"

static int me, np;

static void emit(const char *metric, double us) {
  if (me == 0) printf("%s\t%d\t%.4g\tus\n", metric, np, us);
}

static void mutexes(void) {
  int last = np - 1;
  GA_Create_mutexes(np); /* mutex i lives on rank i mod np */
  int dims[1] = {np}, chunk[1] = {1};
  int c = NGA_Create(C_LONG, 1, dims, "counter", chunk);
  GA_Zero(c);
  const int n = 2000;
  GA_Sync();
  if (me == 0) {
    double t = MPI_Wtime();
    for (int i = 0; i < n; i++) {
      GA_Lock(last);
      GA_Unlock(last);
    }
    emit("lock_unlock_us", (MPI_Wtime() - t) / n * 1e6);
  }
  GA_Sync();
  int at[1] = {last}, ld[1] = {1};
  long v;
  double t = MPI_Wtime();
  for (int i = 0; i < n; i++) {
    GA_Lock(last);
    NGA_Get(c, at, at, &v, ld);
    v++;
    NGA_Put(c, at, at, &v, ld);
    GA_Unlock(last);
  }
  GA_Sync();
  emit("locked_counter_us", (MPI_Wtime() - t) / n * 1e6);
  NGA_Get(c, at, at, &v, ld);
  if (me == 0 && v != (long)n * np) fprintf(stderr, "locked counter %ld, want %ld\n", v, (long)n * np);
  GA_Destroy(c);
  GA_Destroy_mutexes();
}

static void collectives(void) {
  const int nc = 200;
  int d[2] = {100, 100};
  GA_Sync();
  double t = MPI_Wtime();
  for (int i = 0; i < nc; i++) GA_Destroy(NGA_Create(C_DBL, 2, d, "t", NULL));
  emit("create_destroy_us", (MPI_Wtime() - t) / nc * 1e6);
  const int nb = 2000;
  double b = 1;
  GA_Sync();
  t = MPI_Wtime();
  for (int i = 0; i < nb; i++) GA_Brdcst(&b, sizeof b, 0);
  emit("brdcst_8_us", (MPI_Wtime() - t) / nb * 1e6);
  GA_Sync();
  t = MPI_Wtime();
  for (int i = 0; i < nb; i++) GA_Dgop(&b, 1, "+");
  emit("dgop_8_us", (MPI_Wtime() - t) / nb * 1e6);
}

static void scatterGather(void) {
  int d[2] = {1000, 1000};
  int a = NGA_Create(C_DBL, 2, d, "a", NULL);
  double one = 1;
  GA_Fill(a, &one);
  const int k = 1000, ns = 200;
  int *subs = malloc(sizeof(int) * 2 * k), **sp = malloc(sizeof(int *) * k);
  double *vals = malloc(sizeof(double) * k);
  for (int i = 0; i < k; i++) {
    subs[2 * i] = (int)((long)i * 7919 % 1000);
    subs[2 * i + 1] = (int)((long)i * 104729 % 1000);
    sp[i] = &subs[2 * i];
    vals[i] = i;
  }
  GA_Sync();
  if (me == 0) {
    double t = MPI_Wtime();
    for (int r = 0; r < ns; r++) NGA_Scatter(a, vals, sp, k);
    emit("scatter_1000_us", (MPI_Wtime() - t) / ns * 1e6);
    t = MPI_Wtime();
    for (int r = 0; r < ns; r++) NGA_Gather(a, vals, sp, k);
    emit("gather_1000_us", (MPI_Wtime() - t) / ns * 1e6);
  }
  GA_Sync();
  free(subs), free(sp), free(vals);
  GA_Destroy(a);
}

static int cmpd(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* spin computes outside GA and MPI for ns nanoseconds. */
static void spin(double ns) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t1);
  while ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec) < ns);
}

static void pausedGets(void) {
  int last = np - 1, dims[1] = {np}, chunk[1] = {1}, at[1] = {last}, ld[1] = {1};
  int a = NGA_Create(C_DBL, 1, dims, "a", chunk);
  double one = 1, v, took[15];
  GA_Fill(a, &one);
  for (int busy = 0; busy < 2; busy++) {
    for (int i = 0; i < 15; i++) {
      GA_Sync();
      if (me == 0) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
        double t = MPI_Wtime();
        NGA_Get(a, at, at, &v, ld);
        took[i] = (MPI_Wtime() - t) * 1e6;
        if (v != 1) fprintf(stderr, "get after a pause: %g, want 1\n", v);
      } else if (me == last && busy) {
        spin(20e6);
      }
    }
    if (me == 0) {
      qsort(took, 15, sizeof took[0], cmpd);
      emit(busy ? "get_from_busy_us" : "get_after_wait_us", took[7]);
    }
  }
  /* 8 gets 1 ms apart while the last rank computes for 40 ms, as a worker
   * reads a shared counter between tasks; the mean over 5 rounds. */
  double sum = 0;
  for (int i = 0; i < 5; i++) {
    GA_Sync();
    if (me == 0) {
      struct timespec ts = {0, 2000000};
      nanosleep(&ts, NULL);
      for (int k = 0; k < 8; k++) {
        double t = MPI_Wtime();
        NGA_Get(a, at, at, &v, ld);
        sum += MPI_Wtime() - t;
        spin(1e6);
      }
    } else if (me == last) {
      spin(40e6);
    }
  }
  if (me == 0) emit("get_spaced_from_busy_us", sum / 40 * 1e6);
  GA_Sync();
  GA_Destroy(a);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
  me = GA_Nodeid();
  np = GA_Nnodes();
  mutexes();
  collectives();
  scatterGather();
  pausedGets();
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
