package ga_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingSprsmatvec ports global/testing/sprsmatvec.c of
// GlobalArrays/ga (commit dd4034712e5ecc88d08a8c0d4ef56a45230660e4): the
// matrix of the 7-point Laplacian on an idim × jdim × kdim grid (6 on the
// diagonal, -1 for each neighbour inside the grid), in double precision,
// times a vector of random values. The original keeps its matrix in global
// arrays of its own making and, without HYPRE to compare with, prints the
// product's magnitude; here the matrix is a Sparse whose rows each process
// adds a share of, and the product, made by MatVec, is checked element by
// element against the stencil applied to the vector, and its magnitude
// against the stencil's. The original's grid is 200³; here it is 7 × 6 × 5.
func TestGATestingSprsmatvec(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const idim, jdim, kdim = 7, 6, 5
		me, n := ga.Nodeid(), ga.Nnodes()
		ntot := idim * jdim * kdim
		s, err := ga.CreateSparse[float64](ntot, ntot)
		must(t, err)
		defer mpitest.Cleanup(t, s.Destroy)
		// neighbours calls f for each grid neighbour of row r.
		neighbours := func(r int, f func(c int)) {
			ix, iy, iz := r%idim, r/idim%jdim, r/(idim*jdim)
			for _, d := range [][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
				x, y, z := ix+d[0], iy+d[1], iz+d[2]
				if x >= 0 && x < idim && y >= 0 && y < jdim && z >= 0 && z < kdim {
					f(x + idim*(y+jdim*z))
				}
			}
		}
		for r := me; r < ntot; r += n {
			must(t, s.AddElement(r, r, 6))
			neighbours(r, func(c int) { must(t, s.AddElement(r, c, -1)) })
		}
		must(t, s.Assemble())

		rng := rand.New(rand.NewPCG(3, 5))
		vec := make([]float64, ntot)
		for i := range vec {
			vec[i] = rng.Float64()
		}
		b, err := ga.Create[float64]("b", []int{ntot}, nil)
		must(t, err)
		defer destroy(t, b)
		c, err := ga.Create[float64]("c", []int{ntot}, nil)
		must(t, err)
		defer destroy(t, c)
		putAll(t, b, vec)
		must(t, c.Zero())
		must(t, s.MatVec(b, c))

		got := getAll(t, c)
		var norm, wantNorm float64
		for r := range ntot {
			want := 6 * vec[r]
			neighbours(r, func(j int) { want -= vec[j] })
			if math.Abs(got[r]-want) > 1e-12 {
				t.Errorf("row %d of the product: %v, want %v", r, got[r], want)
			}
			norm += got[r] * got[r]
			wantNorm += want * want
		}
		if math.Abs(math.Sqrt(norm)-math.Sqrt(wantNorm)) > 1e-12*math.Sqrt(wantNorm) {
			t.Errorf("magnitude of the product %v, want %v", math.Sqrt(norm), math.Sqrt(wantNorm))
		}
	})
}
