package mpi_test

import (
	"errors"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMatchedProbe: every rank sends rank+1 values to rank 0, which sizes each
// receive from the matched message.
func TestMatchedProbe(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		r, n := w.Rank(), w.Size()
		if r != 0 {
			buf := make([]float64, r+1)
			for i := range buf {
				buf[i] = float64(10*r + i)
			}
			must(t, mpi.Send(w, buf, 0, 7))
		} else {
			seen := map[int]bool{}
			for range n - 1 {
				m, err := mpi.Mprobe[float64](w, mpi.AnySource, 7)
				must(t, err)
				st := m.Status()
				if st.Count != st.Source+1 {
					fatalf(t, "message from %d has %d elements, want %d", st.Source, st.Count, st.Source+1)
				}
				short := make([]float64, st.Count-1)
				var ae *mpi.ArgError
				if _, err := mpi.Mrecv(m, short); !errors.As(err, &ae) || ae.Arg != "buf" {
					fatalf(t, "Mrecv into a short buffer: %v, want an ArgError on buf", err)
				}
				buf := make([]float64, st.Count)
				got, err := mpi.Mrecv(m, buf)
				must(t, err)
				for i, v := range buf {
					if v != float64(10*got.Source+i) {
						fatalf(t, "from %d: buf[%d] = %v", got.Source, i, v)
					}
				}
				if _, err := mpi.Mrecv(m, buf); err == nil {
					fatalf(t, "second Mrecv of one message succeeded")
				}
				seen[got.Source] = true
			}
			if len(seen) != n-1 {
				fatalf(t, "received from %d ranks, want %d", len(seen), n-1)
			}
			if m, err := mpi.Improbe[float64](w, mpi.AnySource, 7); m != nil || err != nil {
				fatalf(t, "Improbe with nothing pending = %v, %v", m, err)
			}
		}
		must(t, w.Barrier())
	})
}
