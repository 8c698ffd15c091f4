package main

import "github.com/goga-hpc/goga/mpi"

// twoSided prints what two-sided MPI does between rank 0 and rank 1, the
// pair that every one-sided figure above measures: the round trip of an
// 8-byte message (a one-sided get cannot be faster, a put or an acc that
// is complete at the target hardly) and the rate of one-way transfers of
// the large sizes. ARMCI-MPI's bench does not print them; they are the
// limits to read goga's and the reference's figures against, above all
// across nodes (make bench-2node).
func twoSided() error {
	w := mpi.World()
	if err := w.Barrier(); err != nil {
		return err
	}
	small := make([]byte, 8)
	const trips = 2000
	t := mpi.Wtime()
	for i := range trips + 100 {
		if i == 100 { // past the warm-up
			t = mpi.Wtime()
		}
		switch me {
		case 0:
			if err := mpi.Send(w, small, 1, 0); err != nil {
				return err
			}
			if _, err := mpi.Recv(w, small, 1, 0); err != nil {
				return err
			}
		case 1:
			if _, err := mpi.Recv(w, small, 0, 0); err != nil {
				return err
			}
			if err := mpi.Send(w, small, 0, 0); err != nil {
				return err
			}
		}
	}
	emit("mpi_roundtrip_us", 8, (mpi.Wtime()-t)/trips*1e6, "us")
	for _, bytes := range []int{2 << 20, 8 << 20} {
		big := make([]byte, bytes)
		it := itersFor(bytes)
		if err := w.Barrier(); err != nil {
			return err
		}
		t := mpi.Wtime()
		for range it {
			var err error
			switch me {
			case 0:
				err = mpi.Send(w, big, 1, 1)
			case 1:
				_, err = mpi.Recv(w, big, 0, 1)
			}
			if err != nil {
				return err
			}
		}
		// The last message has arrived when rank 1 says so.
		var err error
		switch me {
		case 0:
			_, err = mpi.Recv(w, small, 1, 2)
		case 1:
			err = mpi.Send(w, small, 0, 2)
		}
		if err != nil {
			return err
		}
		t = mpi.Wtime() - t
		emit("mpi_transfer_MBps", bytes, float64(bytes)*float64(it)/t/1e6, "MB/s")
	}
	return w.Barrier()
}
