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
			if err := mpi.Send(w, buf, 0, 7); err != nil {
				t.Fatal(err)
			}
		} else {
			seen := map[int]bool{}
			for range n - 1 {
				m, err := mpi.Mprobe[float64](w, mpi.AnySource, 7)
				if err != nil {
					t.Fatal(err)
				}
				st := m.Status()
				if st.Count != st.Source+1 {
					t.Fatalf("message from %d has %d elements, want %d", st.Source, st.Count, st.Source+1)
				}
				short := make([]float64, st.Count-1)
				var ae *mpi.ArgError
				if _, err := mpi.Mrecv(m, short); !errors.As(err, &ae) || ae.Arg != "buf" {
					t.Fatalf("Mrecv into a short buffer: %v, want an ArgError on buf", err)
				}
				buf := make([]float64, st.Count)
				got, err := mpi.Mrecv(m, buf)
				if err != nil {
					t.Fatal(err)
				}
				for i, v := range buf {
					if v != float64(10*got.Source+i) {
						t.Fatalf("from %d: buf[%d] = %v", got.Source, i, v)
					}
				}
				if _, err := mpi.Mrecv(m, buf); err == nil {
					t.Fatal("second Mrecv of one message succeeded")
				}
				seen[got.Source] = true
			}
			if len(seen) != n-1 {
				t.Fatalf("received from %d ranks, want %d", len(seen), n-1)
			}
			if m, err := mpi.Improbe[float64](w, mpi.AnySource, 7); m != nil || err != nil {
				t.Fatalf("Improbe with nothing pending = %v, %v", m, err)
			}
		}
		if err := w.Barrier(); err != nil {
			t.Fatal(err)
		}
	})
}
