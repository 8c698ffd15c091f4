package armci_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/mpi"
)

// Examples run as written on any number of ranks; under `go test` they run
// on one, where every "peer" is this process itself.

// start initializes MPI and the runtime on every process of the world.
func start() *armci.Runtime {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	rt, err := armci.Init(mpi.World())
	if err != nil {
		log.Fatal(err)
	}
	return rt
}

// zeroed allocates a segment of size bytes on every process and clears it:
// like ARMCI_Malloc's, a new segment's contents are undefined. Each
// process clears its own part, and the barrier orders that before anyone's
// operations on it.
func zeroed(rt *armci.Runtime, size int) *armci.Segment {
	seg, err := rt.Malloc(size)
	if err != nil {
		log.Fatal(err)
	}
	clear(seg.Local())
	if err := rt.Barrier(); err != nil {
		log.Fatal(err)
	}
	return seg
}

func ExampleInit() {
	rt := start()
	defer rt.Finalize()
	// Every process gives 4 float64s (32 bytes) to a segment.
	seg := zeroed(rt, 32)
	defer seg.Free()
	// Each process writes its rank into the next process's part, one-sidedly.
	next := (rt.Rank() + 1) % rt.Size()
	if err := armci.Put(seg, next, 8, []float64{float64(rt.Rank()), -1}); err != nil {
		log.Fatal(err)
	}
	if err := rt.Barrier(); err != nil { // every put complete everywhere
		log.Fatal(err)
	}
	mine, err := armci.LocalAs[float64](seg)
	if err != nil {
		log.Fatal(err)
	}
	if rt.Rank() == 0 {
		fmt.Println(mine)
	}
	// Output: [0 0 -1 0]
}

func ExampleAcc() {
	rt := start()
	defer rt.Finalize()
	seg := zeroed(rt, 3*8)
	defer seg.Free()
	// Every process adds 2·[1 2 3] into process 0's part: accumulates are
	// atomic per element, so no update is lost.
	if err := armci.Acc(seg, 0, 0, []int64{1, 2, 3}, 2); err != nil {
		log.Fatal(err)
	}
	if err := rt.Barrier(); err != nil {
		log.Fatal(err)
	}
	got := make([]int64, 3)
	if err := armci.Get(seg, 0, 0, got); err != nil {
		log.Fatal(err)
	}
	if rt.Rank() == 0 {
		fmt.Println(got, "from", rt.Size(), "process(es)")
	}
	// Output: [2 4 6] from 1 process(es)
}

func ExampleFetchAdd() {
	rt := start()
	defer rt.Finalize()
	seg := zeroed(rt, 8)
	defer seg.Free()
	// A shared counter on process 0: each FetchAdd returns a different ticket.
	var tickets []int64
	for range 3 {
		t, err := armci.FetchAdd[int64](seg, 0, 0, 1)
		if err != nil {
			log.Fatal(err)
		}
		tickets = append(tickets, t)
	}
	if rt.Rank() == 0 {
		fmt.Println(tickets)
	}
	// Output: [0 1 2]
}

func ExamplePutS() {
	rt := start()
	defer rt.Finalize()
	// A 4 × 4 matrix of int32 per process, row-major: 16 bytes a row.
	seg := zeroed(rt, 4*4*4)
	defer seg.Free()
	// A 2 × 3 patch, packed here (12 bytes a row), into rows 1-2 and
	// columns 1-3 of process 0's matrix (byte 1·16 + 1·4 on).
	patch := []int32{1, 2, 3, 4, 5, 6}
	p := armci.Strided{Count: []int{3 * 4, 2}, LocalStride: []int{3 * 4}, RemoteStride: []int{4 * 4}}
	if rt.Rank() == 0 {
		if err := armci.PutS(seg, 0, 16+4, patch, p); err != nil {
			log.Fatal(err)
		}
	}
	if err := rt.Barrier(); err != nil {
		log.Fatal(err)
	}
	if rt.Rank() == 0 {
		m, err := armci.LocalAs[int32](seg)
		if err != nil {
			log.Fatal(err)
		}
		for i := range 4 {
			fmt.Println(m[4*i : 4*i+4])
		}
	}
	// Output:
	// [0 0 0 0]
	// [0 1 2 3]
	// [0 4 5 6]
	// [0 0 0 0]
}

func ExampleRuntime_Lock() {
	rt := start()
	defer rt.Finalize()
	if err := rt.CreateMutexes(1); err != nil { // one mutex per process
		log.Fatal(err)
	}
	defer rt.DestroyMutexes()
	seg := zeroed(rt, 8)
	defer seg.Free()
	// A read-modify-write of several operations, made atomic by mutex 0
	// of process 0: every process doubles the value and adds 1.
	if err := rt.Lock(0, 0); err != nil {
		log.Fatal(err)
	}
	v := []float64{0}
	if err := armci.Get(seg, 0, 0, v); err != nil {
		log.Fatal(err)
	}
	if err := armci.Put(seg, 0, 0, []float64{2*v[0] + 1}); err != nil {
		log.Fatal(err)
	}
	if err := rt.Fence(0); err != nil { // the put is complete before the next holder reads
		log.Fatal(err)
	}
	if err := rt.Unlock(0, 0); err != nil {
		log.Fatal(err)
	}
	if err := rt.Barrier(); err != nil {
		log.Fatal(err)
	}
	if rt.Rank() == 0 {
		if err := armci.Get(seg, 0, 0, v); err != nil {
			log.Fatal(err)
		}
		fmt.Println(v[0] == float64(int(1)<<rt.Size()-1))
	}
	// Output: true
}

func ExampleDirectTo() {
	rt := start()
	defer rt.Finalize()
	seg := zeroed(rt, 8*4)
	defer seg.Free()
	// Process 0's part, resolved once where this process maps it (one
	// node); elsewhere the checked calls reach it.
	d, mapped := armci.DirectTo[int64](seg, 0)
	if mapped {
		d.Put(1, []int64{7}) // element 1: the caller keeps the bounds
		if _, err := armci.DirectFetchAdd(&d, 0, 1); err != nil {
			log.Fatal(err)
		}
	} else {
		if err := armci.Put(seg, 0, 8, []int64{7}); err != nil {
			log.Fatal(err)
		}
		if _, err := armci.FetchAdd[int64](seg, 0, 0, 1); err != nil {
			log.Fatal(err)
		}
	}
	if err := rt.Barrier(); err != nil {
		log.Fatal(err)
	}
	if rt.Rank() == 0 {
		v := make([]int64, 2)
		if err := armci.Get(seg, 0, 0, v); err != nil {
			log.Fatal(err)
		}
		fmt.Println(v[0] == int64(rt.Size()), v[1])
	}
	// Output: true 7
}

func ExampleAllMaxReduce() {
	rt := start()
	defer rt.Finalize()
	// Every process learns the largest rank that refused (0: none) and the
	// sum of everyone's x, in one collective.
	refused := []int64{0}
	x := []float64{0.5, float64(rt.Rank())}
	sum := make([]float64, len(x))
	if _, err := armci.AllMaxReduce(rt, refused, x, sum, armci.ReduceSum); err != nil {
		log.Fatal(err)
	}
	if rt.Rank() == 0 {
		fmt.Println(refused, sum)
	}
	// Output: [0] [0.5 0]
}
