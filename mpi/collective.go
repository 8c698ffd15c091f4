package mpi

import (
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// Collective calls check every argument that all ranks share (root, op, type)
// before they communicate, so a mistake there fails on every rank alike instead
// of leaving some ranks waiting. For reductions and gathers a nil send slice
// means "in place": the data is taken from recv (MPI_IN_PLACE). An empty,
// non-nil slice is an ordinary empty buffer.

// notInPlace is the send address for calls without an in-place form
// (Alltoall, Alltoallv): never NULL, which the shim reads as MPI_IN_PLACE, even
// for a nil or empty send (a rank that sends nothing but receives).
func notInPlace[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		var one [1]byte
		return unsafe.Pointer(&one[0])
	}
	return unsafe.Pointer(unsafe.SliceData(s))
}

// Bcast is MPI_Bcast: root's buf is copied into every rank's buf.
func Bcast[T Elem](c *Comm, buf []T, root int) error {
	if err := c.valid("Bcast"); err != nil {
		return err
	}
	if err := c.checkRoot("Bcast", root); err != nil {
		return err
	}
	if err := checkCount("Bcast", "buf", len(buf)); err != nil {
		return err
	}
	return check("Bcast", cgo.Bcast(ptr(buf), len(buf), info[T]().dt, root, c.h))
}

// reduceArgs checks a reduction's buffers: count is len(send), or len(recv) in
// place; recv must hold count elements (where it is significant).
func reduceArgs[T Elem](c *Comm, op string, send, recv []T, o Op, recvNeeded bool) (int, elemInfo, error) {
	if err := c.valid(op); err != nil {
		return 0, elemInfo{}, err
	}
	e := info[T]()
	if err := checkOp(op, o, e, false); err != nil {
		return 0, e, err
	}
	n := len(send)
	if send == nil {
		n = len(recv)
	}
	if err := checkCount(op, "send", n); err != nil {
		return 0, e, err
	}
	if recvNeeded && len(recv) < n {
		return 0, e, argErr(op, "recv", "holds %d elements, needs %d", len(recv), n)
	}
	return n, e, nil
}

// Reduce is MPI_Reduce: root's recv gets the elementwise reduction of every
// rank's send. recv matters only at root. A nil send at root reduces in place.
func Reduce[T Elem](c *Comm, send, recv []T, o Op, root int) error {
	if err := c.valid("Reduce"); err != nil {
		return err
	}
	if err := c.checkRoot("Reduce", root); err != nil {
		return err
	}
	if send == nil && c.rank != root {
		return argErr("Reduce", "send", "nil (in place) is only for the root")
	}
	n, e, err := reduceArgs(c, "Reduce", send, recv, o, c.rank == root)
	if err != nil {
		return err
	}
	if o.u != nil {
		return check("Reduce", cgo.ReduceCB(sendPtr(send), ptr(recv), n, e.dt, o.h, root, c.h))
	}
	return check("Reduce", cgo.Reduce(sendPtr(send), ptr(recv), n, e.dt, o.h, root, c.h))
}

// Allreduce is MPI_Allreduce: every rank's recv gets the elementwise reduction
// of every rank's send. A nil send reduces recv in place.
func Allreduce[T Elem](c *Comm, send, recv []T, o Op) error {
	n, e, err := reduceArgs(c, "Allreduce", send, recv, o, true)
	if err != nil {
		return err
	}
	if o.u != nil {
		return check("Allreduce", cgo.AllreduceCB(sendPtr(send), ptr(recv), n, e.dt, o.h, c.h))
	}
	return check("Allreduce", cgo.Allreduce(sendPtr(send), ptr(recv), n, e.dt, o.h, c.h))
}

// Iallreduce is MPI_Iallreduce: Allreduce started, to be completed by Wait
// or Test on the request, with send and recv pinned and not to be touched
// until then. A process can serve its peers between tests instead of
// blocking inside MPI (armci's collectives across nodes do).
func Iallreduce[T Elem](c *Comm, send, recv []T, o Op) (*Request, error) {
	n, e, err := reduceArgs(c, "Iallreduce", send, recv, o, true)
	if err != nil {
		return nil, err
	}
	r := newRequest("Iallreduce", recv, e.size)
	if len(send) > 0 {
		r.pin.Pin(&send[0])
	}
	h, rc := cgo.Iallreduce(sendPtr(send), ptr(recv), n, e.dt, o.h, c.h)
	return r.started(h, check("Iallreduce", rc))
}

// Scan is MPI_Scan: rank r's recv gets the reduction of ranks 0..r.
func Scan[T Elem](c *Comm, send, recv []T, o Op) error {
	n, e, err := reduceArgs(c, "Scan", send, recv, o, true)
	if err != nil {
		return err
	}
	return check("Scan", cgo.Scan(sendPtr(send), ptr(recv), n, e.dt, o.h, c.h))
}

// Exscan is MPI_Exscan: rank r's recv gets the reduction of ranks 0..r-1. On
// rank 0 recv is left as it was.
func Exscan[T Elem](c *Comm, send, recv []T, o Op) error {
	n, e, err := reduceArgs(c, "Exscan", send, recv, o, true)
	if err != nil {
		return err
	}
	return check("Exscan", cgo.Exscan(sendPtr(send), ptr(recv), n, e.dt, o.h, c.h))
}

// ReduceScatter is MPI_Reduce_scatter: send (of sum(counts) elements) is reduced
// elementwise across ranks, and rank r receives the counts[r] elements that
// follow the first counts[0]+...+counts[r-1]. A nil send reduces recv in place,
// which then holds sum(counts) elements.
func ReduceScatter[T Elem](c *Comm, send, recv []T, counts []int, o Op) error {
	const op = "ReduceScatter"
	if err := c.valid(op); err != nil {
		return err
	}
	if len(counts) != c.size {
		return argErr(op, "counts", "has %d entries for %d ranks", len(counts), c.size)
	}
	total := 0
	for i, n := range counts {
		if n < 0 {
			return argErr(op, "counts", "counts[%d] = %d is negative", i, n)
		}
		total += n
	}
	e := info[T]()
	if err := checkOp(op, o, e, false); err != nil {
		return err
	}
	if err := checkCount(op, "counts", total); err != nil {
		return err
	}
	if send != nil && len(send) < total {
		return argErr(op, "send", "holds %d elements, counts sum to %d", len(send), total)
	}
	need := counts[c.rank]
	if send == nil {
		need = total
	}
	if len(recv) < need {
		return argErr(op, "recv", "holds %d elements, needs %d", len(recv), need)
	}
	return check(op, cgo.ReduceScatter(sendPtr(send), ptr(recv), counts, e.dt, o.h, c.h))
}

// checkVector checks counts and displacements for the v-collectives and returns
// the length a buffer needs. nil displs means packed in rank order (and is
// filled in).
func checkVector(op, name string, size int, counts, displs []int) ([]int, int, error) {
	if len(counts) != size {
		return nil, 0, argErr(op, name+"Counts", "has %d entries for %d ranks", len(counts), size)
	}
	if displs == nil {
		displs = make([]int, size)
		off := 0
		for i, n := range counts {
			displs[i] = off
			off += n
		}
	}
	if len(displs) != size {
		return nil, 0, argErr(op, name+"Displs", "has %d entries for %d ranks", len(displs), size)
	}
	need := 0
	for i, n := range counts {
		if n < 0 {
			return nil, 0, argErr(op, name+"Counts", "[%d] = %d is negative", i, n)
		}
		if displs[i] < 0 || displs[i] > maxCount {
			return nil, 0, argErr(op, name+"Displs", "[%d] = %d out of range", i, displs[i])
		}
		if n > 0 && displs[i]+n > need {
			need = displs[i] + n
		}
	}
	if err := checkCount(op, name+"Counts", need); err != nil {
		return nil, 0, err
	}
	return displs, need, nil
}

// Gather is MPI_Gather: root's recv gets every rank's send, in rank order, each
// len(send) long. recv matters only at root, where it must hold size·len(send)
// elements. A nil send at root takes root's part in place from recv.
func Gather[T Elem](c *Comm, send, recv []T, root int) error {
	const op = "Gather"
	if err := c.valid(op); err != nil {
		return err
	}
	if err := c.checkRoot(op, root); err != nil {
		return err
	}
	n := len(send)
	if send == nil {
		if c.rank != root {
			return argErr(op, "send", "nil (in place) is only for the root")
		}
		n = len(recv) / c.size
	}
	if err := checkCount(op, "send", n*c.size); err != nil {
		return err
	}
	if c.rank == root && len(recv) < n*c.size {
		return argErr(op, "recv", "holds %d elements, needs %d", len(recv), n*c.size)
	}
	return check(op, cgo.Gather(sendPtr(send), n, ptr(recv), n, info[T]().dt, root, c.h))
}

// Gatherv is MPI_Gatherv: root's recv gets rank r's send at displs[r], counts[r]
// long. counts and displs matter only at root; nil displs packs the parts in
// rank order. A nil send at root leaves root's part in place.
func Gatherv[T Elem](c *Comm, send, recv []T, counts, displs []int, root int) error {
	const op = "Gatherv"
	if err := c.valid(op); err != nil {
		return err
	}
	if err := c.checkRoot(op, root); err != nil {
		return err
	}
	if send == nil && c.rank != root {
		return argErr(op, "send", "nil (in place) is only for the root")
	}
	if err := checkCount(op, "send", len(send)); err != nil {
		return err
	}
	if c.rank == root {
		var need int
		var err error
		if displs, need, err = checkVector(op, "recv", c.size, counts, displs); err != nil {
			return err
		}
		if len(recv) < need {
			return argErr(op, "recv", "holds %d elements, needs %d", len(recv), need)
		}
		if send != nil && len(send) != counts[root] {
			return argErr(op, "send", "holds %d elements, counts[%d] is %d", len(send), root, counts[root])
		}
	}
	return check(op, cgo.Gatherv(sendPtr(send), len(send), ptr(recv), counts, displs, info[T]().dt, root, c.h))
}

// Allgather is MPI_Allgather: every rank's recv gets every rank's send in rank
// order; recv holds size·len(send) elements. A nil send takes each rank's part
// in place from recv.
func Allgather[T Elem](c *Comm, send, recv []T) error {
	const op = "Allgather"
	if err := c.valid(op); err != nil {
		return err
	}
	n := len(send)
	if send == nil {
		n = len(recv) / c.size
	}
	if err := checkCount(op, "send", n*c.size); err != nil {
		return err
	}
	if len(recv) < n*c.size {
		return argErr(op, "recv", "holds %d elements, needs %d", len(recv), n*c.size)
	}
	return check(op, cgo.Allgather(sendPtr(send), n, ptr(recv), n, info[T]().dt, c.h))
}

// Allgatherv is MPI_Allgatherv: every rank's recv gets rank r's send at
// displs[r], counts[r] long; nil displs packs them in rank order.
func Allgatherv[T Elem](c *Comm, send, recv []T, counts, displs []int) error {
	const op = "Allgatherv"
	if err := c.valid(op); err != nil {
		return err
	}
	displs, need, err := checkVector(op, "recv", c.size, counts, displs)
	if err != nil {
		return err
	}
	if len(recv) < need {
		return argErr(op, "recv", "holds %d elements, needs %d", len(recv), need)
	}
	if send != nil && len(send) != counts[c.rank] {
		return argErr(op, "send", "holds %d elements, counts[%d] is %d", len(send), c.rank, counts[c.rank])
	}
	if c.size == 1 {
		// The whole operation is this copy; MPICH 4.0.2 makes it at
		// offset 0 whatever displs[0] says, from C too.
		if send != nil {
			copy(recv[displs[0]:], send)
		}
		return nil
	}
	return check(op, cgo.Allgatherv(sendPtr(send), len(send), ptr(recv), counts, displs, info[T]().dt, c.h))
}

// Scatter is MPI_Scatter: root's send is cut into size parts of len(recv)
// elements, and rank r's recv gets part r. send matters only at root. A nil
// recv at root keeps root's part in place.
func Scatter[T Elem](c *Comm, send, recv []T, root int) error {
	const op = "Scatter"
	if err := c.valid(op); err != nil {
		return err
	}
	if err := c.checkRoot(op, root); err != nil {
		return err
	}
	n := len(recv)
	if recv == nil {
		if c.rank != root {
			return argErr(op, "recv", "nil (in place) is only for the root")
		}
		n = len(send) / c.size
	}
	if err := checkCount(op, "recv", n*c.size); err != nil {
		return err
	}
	if c.rank == root && len(send) < n*c.size {
		return argErr(op, "send", "holds %d elements, needs %d", len(send), n*c.size)
	}
	return check(op, cgo.Scatter(ptr(send), n, sendPtr(recv), n, info[T]().dt, root, c.h))
}

// Scatterv is MPI_Scatterv: rank r's recv gets counts[r] elements of root's send
// from displs[r]. send, counts and displs matter only at root.
func Scatterv[T Elem](c *Comm, send []T, counts, displs []int, recv []T, root int) error {
	const op = "Scatterv"
	if err := c.valid(op); err != nil {
		return err
	}
	if err := c.checkRoot(op, root); err != nil {
		return err
	}
	if recv == nil && c.rank != root {
		return argErr(op, "recv", "nil (in place) is only for the root")
	}
	if err := checkCount(op, "recv", len(recv)); err != nil {
		return err
	}
	if c.rank == root {
		var need int
		var err error
		if displs, need, err = checkVector(op, "send", c.size, counts, displs); err != nil {
			return err
		}
		if len(send) < need {
			return argErr(op, "send", "holds %d elements, needs %d", len(send), need)
		}
		if recv != nil && len(recv) < counts[root] {
			return argErr(op, "recv", "holds %d elements, counts[%d] is %d", len(recv), root, counts[root])
		}
	}
	return check(op, cgo.Scatterv(ptr(send), counts, displs, sendPtr(recv), len(recv), info[T]().dt, root, c.h))
}

// Alltoall is MPI_Alltoall: send is cut into size equal parts; part r goes to
// rank r, and recv's part s comes from rank s. len(send) must divide by size.
func Alltoall[T Elem](c *Comm, send, recv []T) error {
	const op = "Alltoall"
	if err := c.valid(op); err != nil {
		return err
	}
	if len(send)%c.size != 0 {
		return argErr(op, "send", "length %d does not divide into %d ranks", len(send), c.size)
	}
	if err := checkCount(op, "send", len(send)); err != nil {
		return err
	}
	if len(recv) < len(send) {
		return argErr(op, "recv", "holds %d elements, needs %d", len(recv), len(send))
	}
	n := len(send) / c.size
	return check(op, cgo.Alltoall(notInPlace(send), n, ptr(recv), n, info[T]().dt, c.h))
}

// Alltoallv is MPI_Alltoallv: sendCounts[r] elements from send at sendDispls[r]
// go to rank r, and recvCounts[s] elements from rank s land in recv at
// recvDispls[s]. nil displacements pack the parts in rank order.
func Alltoallv[T Elem](c *Comm, send []T, sendCounts, sendDispls []int, recv []T, recvCounts, recvDispls []int) error {
	const op = "Alltoallv"
	if err := c.valid(op); err != nil {
		return err
	}
	sendDispls, sneed, err := checkVector(op, "send", c.size, sendCounts, sendDispls)
	if err != nil {
		return err
	}
	recvDispls, rneed, err := checkVector(op, "recv", c.size, recvCounts, recvDispls)
	if err != nil {
		return err
	}
	if len(send) < sneed {
		return argErr(op, "send", "holds %d elements, needs %d", len(send), sneed)
	}
	if len(recv) < rneed {
		return argErr(op, "recv", "holds %d elements, needs %d", len(recv), rneed)
	}
	return check(op, cgo.Alltoallv(notInPlace(send), sendCounts, sendDispls, ptr(recv), recvCounts, recvDispls, info[T]().dt, c.h))
}

// LocValue is the set of value types that MinLoc and MaxLoc work on.
type LocValue interface {
	~int32 | ~int64 | ~float32 | ~float64
}

// ValueIndex is a value with the index where it was found, the element of
// MinLoc and MaxLoc reductions (MPI_2INT, MPI_LONG_INT, MPI_FLOAT_INT,
// MPI_DOUBLE_INT). Ties keep the smaller index.
type ValueIndex[V LocValue] struct {
	Value V
	Index int32
}

func locType[V LocValue]() cgo.Datatype {
	switch info[V]().size {
	case 4:
		if info[V]().kind == kindFloat {
			return cgo.FloatInt
		}
		return cgo.TwoInt
	default:
		if info[V]().kind == kindFloat {
			return cgo.DoubleInt
		}
		return cgo.LongInt
	}
}

func locArgs[V LocValue](c *Comm, op string, send, recv []ValueIndex[V], o Op, recvNeeded bool) (int, error) {
	if err := c.valid(op); err != nil {
		return 0, err
	}
	if o != MinLoc && o != MaxLoc {
		return 0, argErr(op, "op", "%s is not MinLoc or MaxLoc", o.name)
	}
	n := len(send)
	if send == nil {
		n = len(recv)
	}
	if err := checkCount(op, "send", n); err != nil {
		return 0, err
	}
	if recvNeeded && len(recv) < n {
		return 0, argErr(op, "recv", "holds %d elements, needs %d", len(recv), n)
	}
	return n, nil
}

// AllreduceLoc is Allreduce with MinLoc or MaxLoc: each recv element gets the
// extreme value over ranks and the index that came with it.
func AllreduceLoc[V LocValue](c *Comm, send, recv []ValueIndex[V], o Op) error {
	n, err := locArgs(c, "AllreduceLoc", send, recv, o, true)
	if err != nil {
		return err
	}
	return check("AllreduceLoc", cgo.Allreduce(sendPtr(send), ptr(recv), n, locType[V](), o.h, c.h))
}

// ReduceLoc is Reduce with MinLoc or MaxLoc.
func ReduceLoc[V LocValue](c *Comm, send, recv []ValueIndex[V], o Op, root int) error {
	if err := c.valid("ReduceLoc"); err != nil {
		return err
	}
	if err := c.checkRoot("ReduceLoc", root); err != nil {
		return err
	}
	if send == nil && c.rank != root {
		return argErr("ReduceLoc", "send", "nil (in place) is only for the root")
	}
	n, err := locArgs(c, "ReduceLoc", send, recv, o, c.rank == root)
	if err != nil {
		return err
	}
	return check("ReduceLoc", cgo.Reduce(sendPtr(send), ptr(recv), n, locType[V](), o.h, root, c.h))
}
