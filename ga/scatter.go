package ga

import (
	"sync"

	"github.com/goga-hpc/goga/armci"
)

// byOwner sorts the elements subs[k] by owner into armci I/O vectors, one
// per owning rank, in rank order: the byte offsets of the values in v and
// of the elements in the owner's block, in the order of subs. The caller
// ends with release.
func (a *Array[T]) byOwner(op string, subs [][]int, n int) (*owners, error) {
	if err := a.valid(op); err != nil {
		return nil, err
	}
	if len(subs) != n {
		return nil, errorf(op, a.name, "%d values for %d subscripts", n, len(subs))
	}
	for k, s := range subs {
		if len(s) != len(a.dims) {
			return nil, errorf(op, a.name, "subscript %d is %v; the array has %d dimensions", k, s, len(a.dims))
		}
		for d := range s {
			if s[d] < 0 || s[d] >= a.dims[d] {
				return nil, errorf(op, a.name, "subscript %d is %v, outside dims %v", k, s, a.dims)
			}
		}
	}
	o := takeOwners(n, a.g.size())
	// A counting sort: how many elements each rank owns, where its run
	// starts, then each element into its rank's run.
	count := o.count
	clear(count)
	for k, s := range subs {
		r, off := a.element(s)
		o.rank[k], o.off[k] = r, off
		count[r+1]++
	}
	o.vecs, o.ranks = o.vecs[:0], o.ranks[:0]
	for r := range len(count) - 1 {
		lo, hi := count[r], count[r]+count[r+1]
		count[r+1] = hi
		if hi > lo {
			o.vecs = append(o.vecs, armci.IOVec{Local: o.local[lo:hi:hi], Remote: o.remote[lo:hi:hi], Bytes: a.es})
			o.ranks = append(o.ranks, r)
		}
	}
	for k := range n {
		r := o.rank[k]
		at := count[r]
		count[r]++
		o.local[at], o.remote[at] = k*a.es, o.off[k]
	}
	return o, nil
}

// byOwners moves the elements subs[k] of one call, by one armci vector call
// per owning rank: move's.
func (a *Array[T]) byOwners(op string, subs [][]int, n int, stat opKind, move func(rank int, vec []armci.IOVec) error) error {
	o, err := a.byOwner(op, subs, n)
	if err != nil {
		return err
	}
	defer o.release()
	a.countCall(stat)
	for i, r := range o.ranks {
		st := a.notePiece(r, stat, len(o.vecs[i].Local)*a.es)
		err := move(r, o.vecs[i:i+1])
		a.g.took(st, r, stat)
		if err != nil {
			return err
		}
	}
	return nil
}

// owners is the scratch of byOwner: per element its owner and offset there,
// the I/O vectors' offsets grouped by owner, a count per rank, and the
// vectors with their ranks.
type owners struct {
	rank, off, local, remote []int
	count                    []int
	vecs                     []armci.IOVec
	ranks                    []int
	prealloc                 bool
}

func newOwners(n, nproc int) *owners {
	ints := make([]int, 4*n+nproc+1+nproc)
	return &owners{
		rank:   ints[0*n : 1*n : 1*n],
		off:    ints[1*n : 2*n : 2*n],
		local:  ints[2*n : 3*n : 3*n],
		remote: ints[3*n : 4*n : 4*n],
		count:  ints[4*n : 4*n+nproc+1 : 4*n+nproc+1],
		ranks:  ints[4*n+nproc+1:][:0:nproc],
		vecs:   make([]armci.IOVec, 0, nproc),
	}
}

// gatscat is the scratch that AllocGatscatBuf sets aside. Its lock is held
// by AllocGatscatBuf, FreeGatscatBuf and the call sorting with the scratch;
// a call that finds it held, or too small, sorts in memory of its own.
var gatscat struct {
	sync.Mutex
	n   int // the elements it holds; 0 when none is allocated
	buf *owners
}

// takeOwners returns scratch for n elements on nproc ranks: the
// preallocated one when it is free and large enough, else new memory.
func takeOwners(n, nproc int) *owners {
	if gatscat.TryLock() {
		if o := gatscat.buf; o != nil && n <= gatscat.n && nproc < len(o.count) {
			o.rank, o.off, o.local, o.remote = o.rank[:n], o.off[:n], o.local[:n], o.remote[:n]
			o.count = o.count[:nproc+1]
			return o // unlocked by release
		}
		gatscat.Unlock()
	}
	return newOwners(n, nproc)
}

// release gives back the preallocated scratch.
func (o *owners) release() {
	if o.prealloc {
		gatscat.Unlock()
	}
}

// AllocGatscatBuf sets aside, on this process, scratch for the gathers and
// scatters it makes of up to n elements (NGA_Alloc_gatscat_buf), so that
// they do not allocate it per call. It is local, as GA's: each process
// passes the most it will move itself. A call with more elements still
// works (GA's aborts), with scratch of its own. n must be positive, and the
// scratch is kept until FreeGatscatBuf; allocating twice is an error.
func AllocGatscatBuf(n int) error {
	proc.mu.Lock()
	w := proc.world
	proc.mu.Unlock()
	if w == nil {
		return stateErr("AllocGatscatBuf", "", ErrNotInitialized)
	}
	if n <= 0 {
		return errorf("AllocGatscatBuf", "", "n = %d; want > 0", n)
	}
	gatscat.Lock()
	defer gatscat.Unlock()
	if gatscat.buf != nil {
		return errorf("AllocGatscatBuf", "", "scratch for %d elements is already allocated; FreeGatscatBuf first", gatscat.n)
	}
	// Sized for the world group, which every other group's ranks fit in.
	o := newOwners(n, w.size())
	o.prealloc = true
	gatscat.n, gatscat.buf = n, o
	return nil
}

// FreeGatscatBuf frees the scratch of AllocGatscatBuf
// (NGA_Free_gatscat_buf), once no gather or scatter uses it. Without that
// scratch it is an error.
func FreeGatscatBuf() error {
	gatscat.Lock()
	defer gatscat.Unlock()
	if gatscat.buf == nil {
		return errorf("FreeGatscatBuf", "", "no scratch allocated; AllocGatscatBuf first")
	}
	gatscat.n, gatscat.buf = 0, nil
	return nil
}

// Scatter sets element subs[k] to v[k] for every k (NGA_Scatter). The order in
// which duplicates land is undefined.
func (a *Array[T]) Scatter(v []T, subs [][]int) error { return a.scatter("Scatter", v, subs) }

// Gather sets v[k] to element subs[k] for every k (NGA_Gather).
func (a *Array[T]) Gather(v []T, subs [][]int) error { return a.gather("Gather", v, subs) }

// ScatterAcc adds alpha·v[k] to element subs[k] for every k, atomically per
// element (NGA_Scatter_acc).
func (a *Array[T]) ScatterAcc(v []T, subs [][]int, alpha T) error {
	return a.scatterAcc("ScatterAcc", v, subs, alpha)
}

// ScatterFlat is Scatter with the subscripts in one flat list, element k's
// at flat[k·ndim:(k+1)·ndim] (NGA_Scatter_flat).
func (a *Array[T]) ScatterFlat(v []T, flat []int) error {
	subs, err := a.unflatten("ScatterFlat", flat, len(v))
	if err != nil {
		return err
	}
	return a.scatter("ScatterFlat", v, subs)
}

// GatherFlat is Gather with the subscripts in one flat list
// (NGA_Gather_flat), as ScatterFlat takes them.
func (a *Array[T]) GatherFlat(v []T, flat []int) error {
	subs, err := a.unflatten("GatherFlat", flat, len(v))
	if err != nil {
		return err
	}
	return a.gather("GatherFlat", v, subs)
}

// ScatterAccFlat is ScatterAcc with the subscripts in one flat list
// (NGA_Scatter_acc_flat), as ScatterFlat takes them.
func (a *Array[T]) ScatterAccFlat(v []T, flat []int, alpha T) error {
	subs, err := a.unflatten("ScatterAccFlat", flat, len(v))
	if err != nil {
		return err
	}
	return a.scatterAcc("ScatterAccFlat", v, subs, alpha)
}

// unflatten cuts a flat list of n subscripts into n views of it, without
// copying; byOwner checks the values.
func (a *Array[T]) unflatten(op string, flat []int, n int) ([][]int, error) {
	if err := a.valid(op); err != nil {
		return nil, err
	}
	nd := len(a.dims)
	if len(flat) != n*nd {
		return nil, errorf(op, a.name, "%d subscript values for %d values in %d dimensions; want %d", len(flat), n, nd, n*nd)
	}
	subs := make([][]int, n)
	for k := range subs {
		subs[k] = flat[k*nd : (k+1)*nd : (k+1)*nd]
	}
	return subs, nil
}

func (a *Array[T]) scatter(op string, v []T, subs [][]int) error {
	return a.byOwners(op, subs, len(v), statScatter, func(r int, vec []armci.IOVec) error {
		return armci.PutV(a.seg, r, v, vec)
	})
}

func (a *Array[T]) gather(op string, v []T, subs [][]int) error {
	a = a.source()
	return a.byOwners(op, subs, len(v), statGather, func(r int, vec []armci.IOVec) error {
		return armci.GetV(a.seg, r, v, vec)
	})
}

func (a *Array[T]) scatterAcc(op string, v []T, subs [][]int, alpha T) error {
	return a.byOwners(op, subs, len(v), statSacc, func(r int, vec []armci.IOVec) error {
		return armci.AccV(a.seg, r, v, vec, alpha)
	})
}
