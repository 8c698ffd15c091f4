package armci

import (
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// AccElem is the set of element types Acc works on (ARMCI_ACC_INT, _LNG,
// _FLT, _DBL, _CPL, _DCP).
type AccElem interface {
	~int32 | ~int64 | ~float32 | ~float64 | ~complex64 | ~complex128
}

// accKind is an accumulate's element type as the atomics see it, which take
// bytes and a scale in words (scaleWords): one method per way of adding,
// the processor's and MPI's. kindOf[T] is it for T; accKinds are the kinds
// by their code on the wire (accCode).
type accKind interface {
	code() int
	// add is dst += scale·src, on whole elements.
	add(dst, src []byte, scale [2]int64)
	// addS adds the strided patch p of src into part from offset 0 on.
	addS(part, src []byte, p Strided, scale [2]int64)
	// addV adds the pieces vecs name of src into part.
	addV(part, src []byte, vecs []IOVec, scale [2]int64)
	// accMPI issues MPI accumulates of scale·src into rank's part of w at
	// off, in pieces; completing them is the caller's business.
	accMPI(w *mpi.Win, rank, off int, src []byte, scale [2]int64) error
	// accMPIS issues the MPI accumulates of scale times the strided patch
	// p of src at off, packed a piece at a time.
	accMPIS(w *mpi.Win, rank, off int, src []byte, p Strided, scale [2]int64) error
}

type kindOf[T AccElem] struct{}

var accKinds = [...]accKind{
	kindOf[int32]{}, kindOf[int64]{}, kindOf[float32]{}, kindOf[float64]{}, kindOf[complex64]{}, kindOf[complex128]{},
}

// accCode is T's index in accKinds.
func accCode[T AccElem]() int {
	var z T
	switch any(z).(type) {
	case int32:
		return 0
	case int64:
		return 1
	case float32:
		return 2
	case float64:
		return 3
	case complex64:
		return 4
	}
	return 5
}

// scaleWords carries a scale of T in two words (a complex128 fills both).
func scaleWords[T AccElem](scale T) [2]int64 {
	var w [2]int64
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 16), unsafe.Slice((*byte)(unsafe.Pointer(&scale)), sizeOf[T]()))
	return w
}

// scaleOf is the scale of T that w carries.
func scaleOf[T AccElem](w [2]int64) T {
	var sc T
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&sc)), sizeOf[T]()), unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 16))
	return sc
}

func (kindOf[T]) code() int { return accCode[T]() }

func (kindOf[T]) add(dst, src []byte, scale [2]int64) {
	accumulate(elemsOf[T](dst), elemsOf[T](src), scaleOf[T](scale))
}

func (kindOf[T]) addS(part, src []byte, p Strided, scale [2]int64) {
	sc, n := scaleOf[T](scale), p.Count[0]
	p.blocks(func(l, r int) { accumulate(elemsOf[T](part[r:r+n]), elemsOf[T](src[l:l+n]), sc) })
}

func (kindOf[T]) addV(part, src []byte, vecs []IOVec, scale [2]int64) {
	sc := scaleOf[T](scale)
	for _, v := range vecs {
		for i := range v.Local {
			accumulate(elemsOf[T](part[v.Remote[i]:v.Remote[i]+v.Bytes]), elemsOf[T](src[v.Local[i]:v.Local[i]+v.Bytes]), sc)
		}
	}
}

func (kindOf[T]) accMPI(w *mpi.Win, rank, off int, src []byte, scale [2]int64) error {
	sc := scaleOf[T](scale)
	return pieces(elemsOf[T](src), func(p []T, o int) error {
		return mpi.Accumulate(w, scaled(p, sc), rank, off+o, mpi.Sum)
	})
}

// accMPIS packs each piece of the scaled patch, then issues one
// MPI_Accumulate of it into the strided target.
func (kindOf[T]) accMPIS(w *mpi.Win, rank, off int, src []byte, p Strided, scale [2]int64) error {
	sc, es := scaleOf[T](scale), sizeOf[T]()
	local := elemsOf[T](src)
	return p.pieces(func(q Strided, l, r int) error {
		n := q.Count[0] / es
		packed := make([]T, 0, q.Bytes()/es)
		q.blocks(func(ql, _ int) {
			for _, v := range local[(l+ql)/es : (l+ql)/es+n] {
				packed = append(packed, sc*v)
			}
		})
		lt, err := mpi.TypeStrided[T]([]int{len(packed)}, nil)
		if err != nil {
			return err
		}
		defer lt.Free()
		rt, err := mpi.TypeStrided[T](append([]int{n}, q.Count[1:]...), q.RemoteStride)
		if err != nil {
			return err
		}
		defer rt.Free()
		return mpi.AccumulateTyped(w, packed, lt, rank, off+r, rt, mpi.Sum)
	})
}

// accumulate is dst += scale·src.
func accumulate[T AccElem](dst, src []T, scale T) {
	dst = dst[:len(src)]
	if accKernel(dst, src, scale) {
		return
	}
	if scale == 1 {
		for i, v := range src {
			dst[i] += v
		}
		return
	}
	for i, v := range src {
		dst[i] += scale * v
	}
}

// scaled returns scale·src, or src itself when scale is 1.
func scaled[T AccElem](src []T, scale T) []T {
	if scale == 1 {
		return src
	}
	out := make([]T, len(src))
	for i, v := range src {
		out[i] = scale * v
	}
	return out
}

// lockWord takes an accumulate lock. Holders are short (one accumulate), so
// waiters spin briefly, then yield, then sleep: with more ranks than cores the
// holder may be descheduled, and spinning would only keep it off the core.
func lockWord(w *uint32) {
	for i := 0; !atomic.CompareAndSwapUint32(w, 0, 1); i++ {
		switch {
		case i < 64:
		case i < 128:
			runtime.Gosched()
		default:
			time.Sleep(time.Microsecond)
		}
	}
}

func unlockWord(w *uint32) { atomic.StoreUint32(w, 0) }
