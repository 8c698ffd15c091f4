package ga_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// start initializes MPI and GA, as the examples of example_test.go do.
func start() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
}

func ExampleArray_Acc() {
	start()
	defer ga.Terminate()
	a, err := ga.Create[int64]("A", []int{2, 3}, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := a.Zero(); err != nil {
		log.Fatal(err)
	}
	// Every process adds 10·[1 2; 3 4] to the patch of columns 1-2:
	// accumulates are atomic per element, so none is lost.
	if err := a.Acc([]int{0, 1}, []int{1, 2}, []int64{1, 2, 3, 4}, nil, 10); err != nil {
		log.Fatal(err)
	}
	if err := ga.Sync(); err != nil {
		log.Fatal(err)
	}
	all := make([]int64, 6)
	if err := a.Get([]int{0, 0}, []int{1, 2}, all, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(all, "from", ga.Nnodes(), "process(es)")
	}
	// Output: [0 10 20 0 30 40] from 1 process(es)
}

func ExampleCreateGhosts() {
	start()
	defer ga.Terminate()
	// A 1-D array with one ghost cell on each side of every block.
	a, err := ga.CreateGhosts[float64]("u", []int{6}, []int{1}, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := a.Put([]int{0}, []int{5}, []float64{1, 2, 3, 4, 5, 6}, nil); err != nil {
		log.Fatal(err)
	}
	// The halo wraps around, as in GA; SetPeriodic(false) would leave the
	// ends alone.
	if err := a.UpdateGhosts(); err != nil {
		log.Fatal(err)
	}
	data, lo, hi, _, err := a.AccessGhosts()
	if err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(lo, hi, data[:hi[0]-lo[0]+1])
	}
	// Output: [-1] [6] [6 1 2 3 4 5 6 1]
}

func ExampleLuSolve() {
	start()
	defer ga.Terminate()
	// A = [4 1; 2 3] and b = A·[1 2] = [6 8].
	a, err := ga.Create[float64]("A", []int{2, 2}, nil)
	if err != nil {
		log.Fatal(err)
	}
	b, err := ga.Create[float64]("b", []int{2, 1}, nil)
	if err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		if err := a.Put([]int{0, 0}, []int{1, 1}, []float64{4, 1, 2, 3}, nil); err != nil {
			log.Fatal(err)
		}
		if err := b.Put([]int{0, 0}, []int{1, 0}, []float64{6, 8}, nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := ga.Sync(); err != nil {
		log.Fatal(err)
	}
	if err := ga.LuSolve(ga.NoTrans, a, b); err != nil { // b becomes x
		log.Fatal(err)
	}
	x := make([]float64, 2)
	if err := b.Get([]int{0, 0}, []int{1, 0}, x, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Printf("%.6f\n", x)
	}
	// Output: [1.000000 2.000000]
}

func ExampleGemm() {
	start()
	defer ga.Terminate()
	// C = A·B for A = [1 2; 3 4] and B = [0 1; 1 0] (B swaps A's columns).
	var arrays [3]*ga.Array[float64]
	for i, name := range []string{"A", "B", "C"} {
		var err error
		if arrays[i], err = ga.Create[float64](name, []int{2, 2}, nil); err != nil {
			log.Fatal(err)
		}
	}
	a, b, c := arrays[0], arrays[1], arrays[2]
	if ga.Nodeid() == 0 {
		if err := a.Put([]int{0, 0}, []int{1, 1}, []float64{1, 2, 3, 4}, nil); err != nil {
			log.Fatal(err)
		}
		if err := b.Put([]int{0, 0}, []int{1, 1}, []float64{0, 1, 1, 0}, nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := ga.Sync(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Gemm(ga.NoTrans, ga.NoTrans, 2, 2, 2, 1, a, b, 0, c); err != nil {
		log.Fatal(err)
	}
	got := make([]float64, 4)
	if err := c.Get([]int{0, 0}, []int{1, 1}, got, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(got)
	}
	// Output: [2 1 4 3]
}

func ExamplePgroupCreate() {
	start()
	defer ga.Terminate()
	// A group of the even-numbered processes; every process takes part in
	// making it, and only its members use it.
	var evens []int
	for r := 0; r < ga.Nnodes(); r += 2 {
		evens = append(evens, r)
	}
	pg, err := ga.PgroupCreate(evens)
	if err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid()%2 == 0 {
		a, err := ga.New[int32](10).Name("on evens").Pgroup(pg).Allocate()
		if err != nil {
			log.Fatal(err)
		}
		if err := a.Fill(3); err != nil { // collective over the group only
			log.Fatal(err)
		}
		sum, err := ga.Dot(a, a)
		if err != nil {
			log.Fatal(err)
		}
		if pg.Nodeid() == 0 {
			fmt.Println("group of", pg.Nnodes(), "process(es): dot", sum)
		}
		if err := a.Destroy(); err != nil {
			log.Fatal(err)
		}
	}
	if err := pg.Destroy(); err != nil {
		log.Fatal(err)
	}
	// Output: group of 1 process(es): dot 90
}
