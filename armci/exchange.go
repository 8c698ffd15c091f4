package armci

import "github.com/goga-hpc/goga/mpi"

// Across nodes, a blocking MPI_Allreduce spins inside MPI. Where MPI does
// not yield when idle (Open MPI's default where each rank has a core, as on
// a cluster), that thread and the active-message server share the
// process's core, each losing it to the other until the scheduler's tick:
// a peer's requests to a process waiting in ga.Sync then waited up to 8 ms.
// There the agreement's record is combined by point-to-point messages
// instead, which the waiting thread completes while serving those
// requests itself (amServer.wait). Across the two simulated nodes, 1 + 1
// ranks bound, against the blocking MPI_Allreduce (3 alternations): 8-byte
// gets from a process in ga.Sync 17 µs on average against 39 (none over
// 1 ms against 20 in 5000), gets of 256 KiB 84 µs against 162, ga.Sync
// itself 12.8 µs against 13.4; 8-byte puts to it 6.0 µs against 3.9 (the
// waiting thread serves them more slowly than a server that never yields).
// An MPI_Iallreduce of the record served the same way made ga.Sync 18.6 µs
// (and cannot take the record's Go operator: a nonblocking reduction could
// call back into Go from any later MPI call).

// tagExchange is the tag of the exchanges' messages on the runtime's
// communicator, which carries no other point-to-point traffic.
const tagExchange = 1

// exchangeRecords combines every process's rec in place, as the record's
// operator does in MPI_Allreduce: the same result on every process, the
// operands in rank order. It is recursive doubling: with n not a power of
// two, each of the first n - p2 pairs of ranks folds into its odd rank
// first, and that rank hands the result back at the end.
func (rt *Runtime) exchangeRecords(rec *[recWords]int64) error {
	n, me := rt.size, rt.rank
	p2 := 1
	for p2*2 <= n {
		p2 *= 2
	}
	extra := n - p2
	in := record.pool.Get().(*[recWords]int64)
	defer record.pool.Put(in)
	vr := me - extra // my place among the p2 that double
	if me < 2*extra {
		if me%2 == 0 {
			if err := rt.exchange(rec[:], nil, me+1); err != nil {
				return err
			}
			return rt.exchange(nil, rec[:], me+1)
		}
		if err := rt.exchange(nil, in[:], me-1); err != nil {
			return err
		}
		mergeRecords(in[:], rec[:])
		vr = me / 2
	}
	for bit := 1; bit < p2; bit <<= 1 {
		pv := vr ^ bit
		peer := pv + extra
		if pv < extra {
			peer = 2*pv + 1
		}
		if err := rt.exchange(rec[:], in[:], peer); err != nil {
			return err
		}
		if pv < vr {
			mergeRecords(in[:], rec[:])
		} else {
			mergeRecords(rec[:], in[:])
			*rec = *in
		}
	}
	if me < 2*extra {
		return rt.exchange(rec[:], nil, me-1)
	}
	return nil
}

// exchange sends send (if not nil) to peer and receives recv (if not nil)
// from it, serving requests aimed at this process while it waits (a
// runtime exchanges only where it has an active-message server). The send
// is blocking: a record is far below every MPI's eager limit, so it returns
// once the bytes are on their way, and a barrier of exchanges took 9.4-9.9
// µs with it against 10.2-10.7 with MPI_Isend completed beside the receive
// (across the two simulated nodes, chunks of 500, 3 runs each). The peer
// posts its receive before its send, as this process does, so a send that
// waited for the receive would not deadlock either.
func (rt *Runtime) exchange(send, recv []int64, peer int) error {
	var r *mpi.Request
	if recv != nil {
		var err error
		if r, err = mpi.Irecv(rt.comm, recv, peer, tagExchange); err != nil {
			return err
		}
	}
	if send != nil {
		if err := mpi.Send(rt.comm, send, peer, tagExchange); err != nil {
			return err
		}
	}
	if r == nil {
		return nil
	}
	return rt.am.wait(r)
}
