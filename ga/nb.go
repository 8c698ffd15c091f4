package ga

import (
	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// Handle is a non-blocking operation in flight (ga_nbhdl_t). Wait completes it
// locally: a put's or accumulate's buffer may then be reused, a get's holds the
// data. Until then the buffer must not be touched. Non-blocking operations are
// not ordered with each other or with blocking ones; use Fence or Sync for that.
type Handle struct {
	hs []*armci.Handle
}

// Wait blocks until the operation is complete (NGA_NbWait).
func (h *Handle) Wait() error {
	if h == nil {
		return errorf("NbWait", "", "nil handle")
	}
	// Every part completes, even after one fails: none is left in flight
	// on the caller's buffer.
	var first error
	for _, x := range h.hs {
		if err := x.Wait(); err != nil && first == nil {
			first = err
		}
	}
	h.hs = nil
	return first
}

// Test reports whether the operation is complete, without blocking (NGA_NbTest).
func (h *Handle) Test() (bool, error) {
	if h == nil {
		return false, errorf("NbTest", "", "nil handle")
	}
	for _, x := range h.hs {
		if ok, err := x.Test(); err != nil || !ok {
			return false, err
		}
	}
	h.hs = nil
	return true, nil
}

// nb issues one non-blocking armci operation per owner of the patch.
func (a *Array[T]) nb(op string, lo, hi []int, buf []T, ld []int, stat opKind,
	issue func(pc piece) (*armci.Handle, error)) (*Handle, error) {
	var b layout.Buffer
	if err := a.transfer(op, lo, hi, ld, len(buf), &b); err != nil {
		return nil, err
	}
	a.countCall(stat)
	return issued(func(keep func(*armci.Handle, error) error) error {
		return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
			st := a.notePiece(pc.rank, stat, pc.p.Bytes())
			h, err := issue(pc)
			a.g.took(st, pc.rank, stat)
			return keep(h, err)
		})
	})
}

// issued gathers into one Handle the operations that walk issues, each
// passed to keep; if walk fails, it completes those issued before the
// failure and returns the error.
func issued(walk func(keep func(*armci.Handle, error) error) error) (*Handle, error) {
	h := &Handle{}
	err := walk(func(x *armci.Handle, err error) error {
		if err == nil {
			h.hs = append(h.hs, x)
		}
		return err
	})
	if err != nil {
		h.Wait()
		return nil, err
	}
	return h, nil
}

// NbPut is Put that returns at once (NGA_NbPut).
func (a *Array[T]) NbPut(lo, hi []int, buf []T, ld []int) (*Handle, error) {
	return a.nb("NbPut", lo, hi, buf, ld, statPut, func(pc piece) (*armci.Handle, error) {
		return armci.NbPutS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
	})
}

// NbGet is Get that returns at once (NGA_NbGet).
func (a *Array[T]) NbGet(lo, hi []int, buf []T, ld []int) (*Handle, error) {
	a = a.source()
	return a.nb("NbGet", lo, hi, buf, ld, statGet, func(pc piece) (*armci.Handle, error) {
		return armci.NbGetS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
	})
}

// NbAcc is Acc that returns at once (NGA_NbAcc).
func (a *Array[T]) NbAcc(lo, hi []int, buf []T, ld []int, alpha T) (*Handle, error) {
	return a.nb("NbAcc", lo, hi, buf, ld, statAcc, func(pc piece) (*armci.Handle, error) {
		return armci.NbAccS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p, alpha)
	})
}
