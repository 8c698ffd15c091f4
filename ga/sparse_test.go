package ga_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestSparse: sparse matrices on 1-4 processes against a dense model: the
// sparse manual's 5×5 CSR example and a random 9×7
// matrix whose elements every process adds some of, repeats included;
// distributions, column blocks, the matrix-vector product, and misuse.
func TestSparse(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("manual", func(t *testing.T) {
			dense := [][]int64{{0, 0, 1, 3, 0}, {2, 0, 0, 0, 5}, {0, 7, 0, 9, 0}, {3, 0, 4, 0, 5}, {0, 2, 0, 0, 6}}
			sparseCase(t, dense, func(i, j int) int { return i + j })
		})
		t.Run("random", func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			dense := make([][]float64, 9)
			for i := range dense {
				dense[i] = make([]float64, 7)
				for j := range dense[i] {
					if rng.IntN(3) == 0 {
						dense[i][j] = float64(rng.IntN(19) - 9)
					}
				}
			}
			sparseCase(t, dense, func(i, j int) int { return i*7 + j })
		})
		t.Run("complex", func(t *testing.T) {
			dense := [][]complex128{{1 + 1i, 0, 2}, {0, 0, 0}, {0, -1i, 3 - 2i}, {4, 0, 0}}
			sparseCase(t, dense, func(i, j int) int { return j })
		})
		t.Run("misuse", testSparseMisuse)
	})
}

// sparseCase builds dense as a sparse matrix, owner picking the process
// that adds each element; an element of an odd row is added in two halves,
// the second by the next process (by the same one, on one process).
func sparseCase[T ga.Elem](t *testing.T, dense [][]T, owner func(i, j int) int) {
	me, n := ga.Nodeid(), ga.Nnodes()
	idim, jdim := len(dense), len(dense[0])
	s, err := ga.CreateSparse[T](idim, jdim)
	must(t, err)
	defer mpitest.Cleanup(t, s.Destroy)
	for i, row := range dense {
		for j, x := range row {
			p := owner(i, j) % n
			switch {
			case x == 0:
			case i%2 == 0:
				if me == p {
					must(t, s.AddElement(i, j, x))
				}
			default:
				if me == p {
					must(t, s.AddElement(i, j, x-x/2))
				}
				if me == (p+1)%n {
					must(t, s.AddElement(i, j, x/2))
				}
			}
		}
	}
	must(t, s.Assemble())

	// Every row is on one process, every column in one block, in order.
	next := 0
	for r := range n {
		if lo, hi, ok := s.RowDistribution(r); ok {
			if lo != next || hi < lo {
				t.Errorf("rows of process %d: %d..%d, want from %d", r, lo, hi, next)
			}
			for i := lo; i <= hi; i++ {
				if i*n/idim != r {
					t.Errorf("row %d is on process %d; GA puts it on %d", i, r, i*n/idim)
				}
			}
			next = hi + 1
		}
	}
	if next != idim {
		t.Errorf("rows end at %d, want %d", next, idim)
	}
	next = 0
	for b := range n {
		if lo, hi, ok := s.ColumnDistribution(b); ok {
			if lo != next || lo != (b*jdim+n-1)/n {
				t.Errorf("columns of block %d start at %d, want %d", b, lo, next)
			}
			next = hi + 1
		}
	}
	if next != jdim {
		t.Errorf("columns end at %d, want %d", next, jdim)
	}

	// This process's rows, put together from its column blocks.
	lo, hi, ok := s.RowDistribution(me)
	if ok {
		got := make([][]T, hi-lo+1)
		for r := range got {
			got[r] = make([]T, jdim)
		}
		for b := range n {
			idx, jdx, val, err := s.AccessColBlock(b)
			must(t, err)
			clo, chi, _ := s.ColumnDistribution(b)
			if idx == nil {
				for r := range got {
					for j := clo; j <= chi; j++ {
						if dense[lo+r][j] != 0 {
							t.Errorf("block %d has no elements; (%d, %d) is %v", b, lo+r, j, dense[lo+r][j])
						}
					}
				}
				continue
			}
			if len(idx) != hi-lo+2 || idx[0] != 0 || len(jdx) != idx[len(idx)-1] || len(val) != len(jdx) {
				t.Errorf("block %d: idx %v for %d rows, %d columns, %d values", b, idx, hi-lo+1, len(jdx), len(val))
				continue
			}
			for r := range got {
				cols := jdx[idx[r]:idx[r+1]]
				if !slices.IsSorted(cols) {
					t.Errorf("block %d, row %d: columns %v not ascending", b, lo+r, cols)
				}
				for k, j := range cols {
					if j < clo || j > chi {
						t.Errorf("block %d (columns %d..%d) holds column %d", b, clo, chi, j)
						continue
					}
					got[r][j] = val[idx[r]+k]
				}
			}
		}
		for r := range got {
			if !slices.Equal(got[r], dense[lo+r]) {
				t.Errorf("row %d from the column blocks: %v, want %v", lo+r, got[r], dense[lo+r])
			}
		}
	}

	// v = S·x against the model.
	x, err := ga.Create[T]("x", []int{jdim}, nil)
	must(t, err)
	defer destroy(t, x)
	v, err := ga.Create[T]("v", []int{idim}, nil)
	must(t, err)
	defer destroy(t, v)
	xs := make([]T, jdim)
	for j := range xs {
		xs[j] = mk[T](j+1, 0)
	}
	if me == 0 {
		must(t, x.Put([]int{0}, []int{jdim - 1}, xs, nil))
	}
	must(t, v.Fill(mk[T](-99, 0)))
	must(t, s.MatVec(x, v))
	want := make([]T, idim)
	for i, row := range dense {
		for j, a := range row {
			want[i] += a * xs[j]
		}
	}
	sameElems(t, "MatVec", getAll(t, v), want)
	// The manual's example, worked out: rows of S·(1, 2, 3, 4, 5).
	if idim == 5 && jdim == 5 {
		sameElems(t, "manual product", getAll(t, v), []T{mk[T](15, 0), mk[T](27, 0), mk[T](50, 0), mk[T](40, 0), mk[T](34, 0)})
	}
	must(t, ga.Sync())
}

func testSparseMisuse(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	_, err := ga.CreateSparse[float64](0, 3)
	wantErr(t, "no rows", err, "CreateSparse", "", nil, "0 × 3")
	s, err := ga.CreateSparse[float64](4, 3)
	must(t, err)
	wantErr(t, "outside", s.AddElement(4, 0, 1), "SparseAddElement", "", nil, "(4, 0)", "4 × 3")
	wantErr(t, "negative", s.AddElement(0, -1, 1), "SparseAddElement", "", nil, "(0, -1)")
	_, _, _, err = s.AccessColBlock(0)
	wantErr(t, "not assembled", err, "SparseAccessColBlock", "", nil, "not assembled")
	x, err := ga.Create[float64]("x", []int{3}, nil)
	must(t, err)
	defer destroy(t, x)
	v, err := ga.Create[float64]("v", []int{4}, nil)
	must(t, err)
	defer destroy(t, v)
	wantErr(t, "MatVec before Assemble", s.MatVec(x, v), "SparseMatVec", "", nil, "not assembled")
	must(t, s.AddElement(3, 2, 5))
	must(t, s.Assemble())
	wantErr(t, "add after", s.AddElement(0, 0, 1), "SparseAddElement", "", nil, "assembled")
	wantErr(t, "twice", s.Assemble(), "SparseAssemble", "", nil, "already assembled")
	_, _, _, err = s.AccessColBlock(n)
	wantErr(t, "no such block", err, "SparseAccessColBlock", "", nil, "column block")

	// Wrong vectors, on every process or on one: v is left as it was.
	must(t, v.Fill(7))
	wantErr(t, "v for a", s.MatVec(v, x), "SparseMatVec", "v", nil, "[4]", "[3]")
	wantErr(t, "same vector", s.MatVec(x, x), "SparseMatVec", "x", nil, "overwrite")
	short, err := ga.Create[float64]("short", []int{3}, nil)
	must(t, err)
	defer destroy(t, short)
	out := v
	if me == n-1 {
		out = short
	}
	err = s.MatVec(x, out)
	if me == n-1 {
		wantErr(t, "one wrong v", err, "SparseMatVec", "short", nil, "[3]", "[4]")
	} else {
		wantErr(t, "one wrong v", err, "SparseMatVec", "short", ga.ErrPeer) // the refusing process's error
	}
	sameElems(t, "v after refused products", getAll(t, v), []float64{7, 7, 7, 7})

	must(t, s.Destroy())
	wantErr(t, "destroyed", s.Assemble(), "SparseAssemble", "", ga.ErrDestroyed)
	wantErr(t, "destroyed add", s.AddElement(0, 0, 1), "SparseAddElement", "", ga.ErrDestroyed)
	var none *ga.Sparse[float64]
	wantErr(t, "nil", none.AddElement(0, 0, 1), "SparseAddElement", "", ga.ErrNil)
	must(t, ga.Sync())
}
