package armci

import "github.com/goga-hpc/goga/mpi"

// IOVec is a list of equal-sized pieces, as ARMCI's PutV, GetV and AccV take
// them (armci_giov_t): piece i is Bytes bytes at Local[i] in the local buffer
// and at Remote[i] in the target's part of the segment, both byte offsets.
type IOVec struct {
	Local  []int
	Remote []int
	Bytes  int
}

func (s *Segment) checkVector(op string, rank int, vecs []IOVec, n, elem int) error {
	if err := s.valid(op); err != nil {
		return err
	}
	// The rank even when no piece moves a byte: the MPI path still flushes it,
	// and the shared-memory path takes its accumulate lock.
	if rank < 0 || rank >= len(s.sizes) {
		return argErr(op, "rank", "%d out of range [0, %d)", rank, len(s.sizes))
	}
	for k, v := range vecs {
		if len(v.Local) != len(v.Remote) {
			return argErr(op, "vecs", "vecs[%d] has %d local and %d remote offsets", k, len(v.Local), len(v.Remote))
		}
		if v.Bytes < 0 || v.Bytes%elem != 0 {
			return argErr(op, "vecs", "vecs[%d].Bytes = %d is not a whole number of %d-byte elements", k, v.Bytes, elem)
		}
		for i := range v.Local {
			l, r := v.Local[i], v.Remote[i]
			if l < 0 || l > n-v.Bytes || l%elem != 0 {
				return argErr(op, "vecs", "vecs[%d].Local[%d] = %d: %d bytes there do not fit an aligned place in the %d-byte buffer", k, i, l, v.Bytes, n)
			}
			if err := s.span(op, rank, r, v.Bytes); err != nil {
				return err
			}
			if r%elem != 0 {
				return argErr(op, "vecs", "vecs[%d].Remote[%d] = %d is not a multiple of the element size %d", k, i, r, elem)
			}
		}
	}
	return nil
}

// PutV copies the pieces of local that vecs name into rank's part of s (ARMCI_PutV).
func PutV[T mpi.Elem](s *Segment, rank int, local []T, vecs []IOVec) error {
	b := bytesOf(local)
	if err := s.checkVector("PutV", rank, vecs, len(b), 1); err != nil {
		return err
	}
	_, err := s.to[rank].putV(b, vecs, true)
	return err
}

// GetV copies the pieces of rank's part of s that vecs name into local (ARMCI_GetV).
func GetV[T mpi.Elem](s *Segment, rank int, local []T, vecs []IOVec) error {
	b := bytesOf(local)
	if err := s.checkVector("GetV", rank, vecs, len(b), 1); err != nil {
		return err
	}
	_, err := s.to[rank].getV(b, vecs, true)
	return err
}

// AccV adds scale times the pieces of local that vecs name into rank's part of
// s (ARMCI_AccV), atomically per element against other accumulates.
func AccV[T AccElem](s *Segment, rank int, local []T, vecs []IOVec, scale T) error {
	es := sizeOf[T]()
	if err := s.checkVector("AccV", rank, vecs, len(local)*es, es); err != nil {
		return err
	}
	return s.at[rank].accV(bytesOf(local), vecs, kindOf[T]{}, scaleWords(scale))
}
