/* gamutexbench.c: GA C's mutexes, under the metric names of cmd/gabench
 * -mutexes (make bench-2node sets the two side by side; the reference
 * benchmarks in ../shared/anchor time no mutexes). Rank 0 locks and unlocks
 * the mutex the last rank hosts, alone (lock_unlock_us); then every rank
 * updates a counter on the last rank under it: lock, get, add one, put,
 * unlock (locked_counter_us, per update of one rank). Build:
 *   mpicc -O2 gamutexbench.c $(ga-config --cppflags --ldflags --libs) -lgfortran -lm */
#include <mpi.h>
#include <stdio.h>
#include "ga.h"
#include "macdecls.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
  int me = GA_Nodeid(), np = GA_Nnodes(), last = np - 1;
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
    printf("lock_unlock_us\t%d\t%.4g\tus\n", np, (MPI_Wtime() - t) / n * 1e6);
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
  t = MPI_Wtime() - t;
  if (me == 0) printf("locked_counter_us\t%d\t%.4g\tus\n", np, t / n * 1e6);
  NGA_Get(c, at, at, &v, ld);
  if (me == 0 && v != (long)n * np) fprintf(stderr, "locked counter %ld, want %ld\n", v, (long)n * np);
  GA_Destroy(c);
  GA_Destroy_mutexes();
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
