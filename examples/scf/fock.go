package main

import (
	"math"
	"math/rand/v2"

	"github.com/goga-hpc/goga/ga"
)

// tol2e is the screening threshold on Schwarz bounds of the integrals.
const tol2e = 1.0e-6

// scf holds the global arrays of the original's common /g_arrays/: the
// task counter and nbfn × nbfn matrices. Orbitals are the rows of orbs (a
// row per orbital, as goga's eigensolvers return eigenvectors).
type scf struct {
	*molecule
	nbfn, chunk                                   int
	counter                                       *ga.Array[int64]
	dens, schwarz, fock, tfock, work, ident, orbs *ga.Array[float64]
	schwmax                                       float64
	// icut1, icut2, icut3 count (ij|kl) failing the ij test, failing the
	// kl test and computed, on this process over all iterations.
	icut1, icut2, icut3 int64
}

func (c *scf) matrices() []*ga.Array[float64] {
	return []*ga.Array[float64]{c.dens, c.schwarz, c.fock, c.tfock, c.work, c.ident, c.orbs}
}

func newSCF(m *molecule, chunk int) (*scf, error) {
	c := &scf{molecule: m, nbfn: len(m.basis), chunk: chunk}
	var err error
	if c.counter, err = ga.Create[int64]("counter", []int{1}, nil); err != nil {
		return nil, err
	}
	names := []string{"dens", "schwarz", "fock", "tfock", "work", "ident", "orbs"}
	ptrs := []**ga.Array[float64]{&c.dens, &c.schwarz, &c.fock, &c.tfock, &c.work, &c.ident, &c.orbs}
	for i, p := range ptrs {
		if *p, err = ga.Create[float64](names[i], []int{c.nbfn, c.nbfn}, nil); err != nil {
			c.destroy()
			return nil, err
		}
	}
	return c, nil
}

func (c *scf) destroy() {
	if c.counter != nil {
		c.counter.Destroy()
	}
	for _, a := range c.matrices() {
		if a != nil {
			a.Destroy()
		}
	}
}

// pool starts a task pool: the counter back at 0 (Zero is collective, so
// every process has finished drawing from the last pool).
func (c *scf) pool() error { return c.counter.Zero() }

// nblocks is the number of chunks along a side.
func (c *scf) nblocks() int { return (c.nbfn + c.chunk - 1) / c.chunk }

// block is chunk b's first and last index.
func (c *scf) block(b int) (lo, hi int) { return b * c.chunk, min((b+1)*c.chunk, c.nbfn) - 1 }

// nextChunk draws the next of the pool's chunk × chunk blocks of a matrix
// (next_chunk); ok is false when none is left.
func (c *scf) nextChunk() (lo, hi []int, ok bool, err error) {
	t, err := c.counter.ReadInc([]int{0}, 1)
	if err != nil {
		return nil, nil, false, err
	}
	n := int64(c.nblocks())
	if t >= n*n {
		return nil, nil, false, nil
	}
	lo, hi = make([]int, 2), make([]int, 2)
	lo[0], hi[0] = c.block(int(t % n))
	lo[1], hi[1] = c.block(int(t / n))
	return lo, hi, true, nil
}

// next4Chunk draws the next block of (ij|kl), one chunk in each index
// (next_4chunk).
func (c *scf) next4Chunk() (lo, hi []int, ok bool, err error) {
	t, err := c.counter.ReadInc([]int{0}, 1)
	if err != nil {
		return nil, nil, false, err
	}
	n := int64(c.nblocks())
	if t >= n*n*n*n {
		return nil, nil, false, nil
	}
	lo, hi = make([]int, 4), make([]int, 4)
	for d := range 4 {
		lo[d], hi[d] = c.block(int(t % n))
		t /= n
	}
	return lo, hi, true, nil
}

// eachChunk runs f on every block the pool gives this process.
func (c *scf) eachChunk(f func(lo, hi []int) error) error {
	if err := c.pool(); err != nil {
		return err
	}
	for {
		lo, hi, ok, err := c.nextChunk()
		if err != nil || !ok {
			return err
		}
		if err := f(lo, hi); err != nil {
			return err
		}
	}
}

// size is the number of elements of the patch [lo, hi].
func size(lo, hi []int) int { return (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) }

// makesz fills schwarz with sqrt((ij|ij)), the Schwarz bound of every
// integral (ij|kl) ≤ schwarz(ij)·schwarz(kl), and finds its largest element.
func (c *scf) makesz() error {
	if err := c.schwarz.Zero(); err != nil {
		return err
	}
	mx := 0.0
	err := c.eachChunk(func(lo, hi []int) error {
		w, p := make([]float64, size(lo, hi)), 0
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				w[p] = math.Sqrt(c.g(i, j, i, j))
				mx = max(mx, w[p])
				p++
			}
		}
		return c.schwarz.Put(lo, hi, w, nil)
	})
	if err != nil {
		return err
	}
	m := []float64{mx}
	if err := ga.Gop(m, ga.OpMax); err != nil {
		return err
	}
	c.schwmax = m[0]
	return nil
}

// denges puts an atom's density on each atom's diagonal block of dens, the
// initial guess.
func (c *scf) denges() error {
	if err := c.dens.Zero(); err != nil {
		return err
	}
	if err := c.pool(); err != nil {
		return err
	}
	at := atomDensity()
	for {
		t, err := c.counter.ReadInc([]int{0}, 1)
		if err != nil {
			return err
		}
		if t >= int64(len(c.atoms)) {
			break
		}
		o := int(t) * nbfAtom
		lo, hi := []int{o, o}, []int{o + nbfAtom - 1, o + nbfAtom - 1}
		if err := c.dens.Put(lo, hi, at, nil); err != nil {
			return err
		}
	}
	return ga.Sync()
}

// makeob makes orbitals orthonormal in the overlap metric, the basis of
// the similarity transform: the eigenvectors of a random symmetric matrix
// in the metric S.
func (c *scf) makeob(rng *rand.Rand) error {
	err := c.eachChunk(func(lo, hi []int) error {
		s, r, p := make([]float64, size(lo, hi)), make([]float64, size(lo, hi)), 0
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				s[p], r[p] = c.s(i, j), rng.Float64()
				p++
			}
		}
		if err := c.ident.Put(lo, hi, s, nil); err != nil {
			return err
		}
		return c.fock.Put(lo, hi, r, nil)
	})
	if err != nil {
		return err
	}
	if err := c.fock.Symmetrize(); err != nil {
		return err
	}
	_, err = ga.DiagSeq(c.fock, c.ident, c.orbs)
	return err
}

// oneel puts the one-electron Hamiltonian in fock (0 where the Schwarz
// bound is negligible) and returns the one-electron energy ½·Σ H∘D.
func (c *scf) oneel() (float64, error) {
	err := c.eachChunk(func(lo, hi []int) error {
		w := make([]float64, size(lo, hi))
		if err := c.schwarz.Get(lo, hi, w, nil); err != nil {
			return err
		}
		p := 0
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				if w[p]*c.schwmax > tol2e {
					w[p] = c.h(i, j)
				} else {
					w[p] = 0
				}
				p++
			}
		}
		return c.fock.Put(lo, hi, w, nil)
	})
	if err != nil {
		return 0, err
	}
	e, err := ga.Dot(c.fock, c.dens)
	return 0.5 * e, err
}

// twoel adds the two-electron part to fock, block by block of (ij|kl)
// from the pool: F(ij) += (ij|kl)·D(kl) and F(ik) −= ½(ij|kl)·D(jl),
// without the 8-fold symmetry, as the original. It returns ½·Σ F∘D, the
// rest of the electronic energy.
func (c *scf) twoel() (float64, error) {
	if err := c.pool(); err != nil {
		return 0, err
	}
	for {
		lo, hi, ok, err := c.next4Chunk()
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		ij, kl := [2][]int{lo[:2], hi[:2]}, [2][]int{lo[2:], hi[2:]}
		ik := [2][]int{{lo[0], lo[2]}, {hi[0], hi[2]}}
		jl := [2][]int{{lo[1], lo[3]}, {hi[1], hi[3]}}
		sij, skl := make([]float64, size(ij[0], ij[1])), make([]float64, size(kl[0], kl[1]))
		dkl, djl := make([]float64, len(skl)), make([]float64, size(jl[0], jl[1]))
		for _, get := range []struct {
			a      *ga.Array[float64]
			lo, hi []int
			buf    []float64
		}{{c.schwarz, ij[0], ij[1], sij}, {c.schwarz, kl[0], kl[1], skl}, {c.dens, kl[0], kl[1], dkl}, {c.dens, jl[0], jl[1], djl}} {
			if err := get.a.Get(get.lo, get.hi, get.buf, nil); err != nil {
				return 0, err
			}
		}
		fij, fik := make([]float64, len(sij)), make([]float64, size(ik[0], ik[1]))
		nj, nk, nl := hi[1]-lo[1]+1, hi[2]-lo[2]+1, hi[3]-lo[3]+1
		for i := lo[0]; i <= hi[0]; i++ {
			il := i - lo[0]
			for j := lo[1]; j <= hi[1]; j++ {
				jl := j - lo[1]
				s := sij[il*nj+jl]
				if s*c.schwmax < tol2e {
					c.icut1 += int64(nk * nl)
					continue
				}
				for k := lo[2]; k <= hi[2]; k++ {
					kl := k - lo[2]
					for l := lo[3]; l <= hi[3]; l++ {
						ll := l - lo[3]
						if s*skl[kl*nl+ll] < tol2e {
							c.icut2++
							continue
						}
						gg := c.g(i, j, k, l)
						fij[il*nj+jl] += gg * dkl[kl*nl+ll]
						fik[il*nk+kl] -= 0.5 * gg * djl[jl*nl+ll]
						c.icut3++
					}
				}
			}
		}
		if err := c.fock.Acc(ij[0], ij[1], fij, nil, 1); err != nil {
			return 0, err
		}
		if err := c.fock.Acc(ik[0], ik[1], fik, nil, 1); err != nil {
			return 0, err
		}
	}
	e, err := ga.Dot(c.fock, c.dens)
	return 0.5 * e, err
}

// asymmetry is the largest |F(ij) − F(ji)| and the largest |F(ij)|.
func (c *scf) asymmetry() (asym, big float64, err error) {
	err = c.eachChunk(func(lo, hi []int) error {
		f, ft := make([]float64, size(lo, hi)), make([]float64, size(lo, hi))
		if err := c.fock.Get(lo, hi, f, nil); err != nil {
			return err
		}
		// The mirror block [lo1, hi1] × [lo0, hi0], nj × ni.
		tlo, thi := []int{lo[1], lo[0]}, []int{hi[1], hi[0]}
		if err := c.fock.Get(tlo, thi, ft, nil); err != nil {
			return err
		}
		ni, nj := hi[0]-lo[0]+1, hi[1]-lo[1]+1
		for a := range ni {
			for b := range nj {
				asym = max(asym, math.Abs(f[a*nj+b]-ft[b*ni+a]))
				big = max(big, math.Abs(f[a*nj+b]))
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	m := []float64{asym, big}
	err = ga.Gop(m, ga.OpMax)
	return m[0], m[1], err
}

// diagon solves F·C = S·C·ε by the similarity transform: F' = X·F·Xᵀ in
// the current orbitals X (orthonormal in S), a level shift of the virtual
// diagonal when F' is far from diagonal, F' = V·ε·Vᵀ on one process, and
// the new orbitals V·X. It returns the eigenvalues and the largest
// off-diagonal |F'| (the original's deltaf).
func (c *scf) diagon(iter int) ([]float64, float64, error) {
	n := c.nbfn
	if err := ga.Gemm(ga.NoTrans, ga.Trans, n, n, n, 1, c.fock, c.orbs, 0, c.tfock); err != nil {
		return nil, 0, err
	}
	if err := ga.Gemm(ga.NoTrans, ga.NoTrans, n, n, n, 1, c.orbs, c.tfock, 0, c.fock); err != nil {
		return nil, 0, err
	}
	tester, err := c.testfock()
	if err != nil {
		return nil, 0, err
	}
	shift := 0.0
	switch {
	case tester > 0.3:
		shift = 0.3
	case n > 60:
		shift = 0.1
	}
	shifted := iter >= 2 && shift != 0
	if shifted {
		if err := c.shiftfock(shift); err != nil {
			return nil, 0, err
		}
	}
	if err := ga.Copy(c.orbs, c.tfock); err != nil {
		return nil, 0, err
	}
	eigv, err := ga.DiagStdSeq(c.fock, c.work)
	if err != nil {
		return nil, 0, err
	}
	if err := ga.Gemm(ga.NoTrans, ga.NoTrans, n, n, n, 1, c.work, c.tfock, 0, c.orbs); err != nil {
		return nil, 0, err
	}
	if shifted {
		for i := c.nocc; i < n; i++ {
			eigv[i] -= shift
		}
	}
	return eigv, tester, nil
}

// testfock is the largest off-diagonal |F'|.
func (c *scf) testfock() (float64, error) {
	mx := 0.0
	err := c.eachChunk(func(lo, hi []int) error {
		w := make([]float64, size(lo, hi))
		if err := c.fock.Get(lo, hi, w, nil); err != nil {
			return err
		}
		p := 0
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				if i != j {
					mx = max(mx, math.Abs(w[p]))
				}
				p++
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	m := []float64{mx}
	err = ga.Gop(m, ga.OpMax)
	return m[0], err
}

// shiftfock adds shift to the diagonal of F' past the occupied orbitals.
func (c *scf) shiftfock(shift float64) error {
	return c.eachChunk(func(lo, hi []int) error {
		w := make([]float64, size(lo, hi))
		if err := c.fock.Get(lo, hi, w, nil); err != nil {
			return err
		}
		p, cnt := 0, 0
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				if i == j && i >= c.nocc {
					w[p] += shift
					cnt++
				}
				p++
			}
		}
		if cnt == 0 {
			return nil
		}
		return c.fock.Put(lo, hi, w, nil)
	})
}

// makden puts the density of the new orbitals, D(ij) = 2·Σ C(ki)·C(kj)
// over the occupied k, in work.
func (c *scf) makden() error {
	return c.eachChunk(func(lo, hi []int) error {
		ni, nj := hi[0]-lo[0]+1, hi[1]-lo[1]+1
		oi, oj := make([]float64, c.nocc*ni), make([]float64, c.nocc*nj)
		if err := c.orbs.Get([]int{0, lo[0]}, []int{c.nocc - 1, hi[0]}, oi, nil); err != nil {
			return err
		}
		if err := c.orbs.Get([]int{0, lo[1]}, []int{c.nocc - 1, hi[1]}, oj, nil); err != nil {
			return err
		}
		w := make([]float64, ni*nj)
		for a := range ni {
			for b := range nj {
				p := 0.0
				for k := range c.nocc {
					p += oi[k*ni+a] * oj[k*nj+b]
				}
				w[a*nj+b] = 2 * p
			}
		}
		return c.work.Put(lo, hi, w, nil)
	})
}

// dendif is the largest change of a density element, |work − dens|.
func (c *scf) dendif() (float64, error) {
	mx := 0.0
	err := c.eachChunk(func(lo, hi []int) error {
		d, w := make([]float64, size(lo, hi)), make([]float64, size(lo, hi))
		if err := c.dens.Get(lo, hi, d, nil); err != nil {
			return err
		}
		if err := c.work.Get(lo, hi, w, nil); err != nil {
			return err
		}
		for p := range d {
			mx = max(mx, math.Abs(d[p]-w[p]))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	m := []float64{mx}
	err = ga.Gop(m, ga.OpMax)
	return m[0], err
}
