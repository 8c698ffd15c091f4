/* gadist.c: prints the GA C library's default distribution (NGA_Distribution)
 * for a list of shapes and chunks, as testdata/ga_distribution.tsv records it,
 * so that goga's own distribution can be checked against the reference.
 * Build and run with scripts/gadist.sh. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"

static int me, np;

static void one(int ndim, int *dims, int *chunk) {
  int g = NGA_Create(C_INT, ndim, dims, "probe", chunk);
  if (!g) { if (me == 0) fprintf(stderr, "create failed\n"); return; }
  if (me == 0) {
    printf("%d\t", np);
    for (int d = 0; d < ndim; d++) printf("%s%d", d ? "," : "", dims[d]);
    printf("\t");
    if (chunk) for (int d = 0; d < ndim; d++) printf("%s%d", d ? "," : "", chunk[d]);
    else printf("-");
    for (int p = 0; p < np; p++) {
      int lo[7], hi[7];
      NGA_Distribution(g, p, lo, hi);
      printf("\t");
      for (int d = 0; d < ndim; d++) printf("%s%d:%d", d ? "," : "", lo[d], hi[d]);
    }
    printf("\n");
  }
  GA_Destroy(g);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  me = GA_Nodeid(); np = GA_Nnodes();
  int d1[][1] = {{1}, {2}, {3}, {5}, {7}, {10}, {17}, {100}, {1000}};
  for (int i = 0; i < 9; i++) one(1, d1[i], NULL);
  int d2[][2] = {{1, 1}, {2, 3}, {10, 10}, {15, 10}, {7, 13}, {100, 3}, {3, 100}, {1000, 999}, {5, 5}, {64, 64}, {9, 1}, {1, 9}};
  for (int i = 0; i < 12; i++) one(2, d2[i], NULL);
  int d3[][3] = {{4, 5, 6}, {10, 10, 10}, {2, 3, 50}, {50, 3, 2}, {1, 1, 1}};
  for (int i = 0; i < 5; i++) one(3, d3[i], NULL);
  int d4[][4] = {{3, 4, 5, 6}, {2, 2, 2, 2}};
  for (int i = 0; i < 2; i++) one(4, d4[i], NULL);
  int c2[][4] = {{10, 10, 2, -1}, {10, 10, -1, 3}, {100, 100, 5, 5}, {15, 10, 20, 1}, {1000, 999, 100, -1}, {17, 19, 4, 4}};
  for (int i = 0; i < 6; i++) one(2, c2[i], c2[i] + 2);
  int c1[][2] = {{100, 30}, {17, 5}, {10, 20}};
  for (int i = 0; i < 3; i++) one(1, c1[i], c1[i] + 1);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
