package peigs_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/peigs"
	"github.com/goga-hpc/goga/scalapack"
)

// The examples run as written on any number of processes (the grid takes
// them all, in one row); under go test they run on one.

// The (2, -1) matrix of order 5 has the eigenvalues 2 − 2cos(kπ/6):
// 2 − √3, 1, 2, 3, 2 + √3.
func ExampleStandard() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	g, err := blacs.GridInit(mpi.World(), blacs.RowMajor, 1, mpi.World().Size())
	if err != nil {
		log.Fatal(err)
	}
	defer g.Exit()
	a, err := scalapack.NewMatrix[float64](g, 5, 5, 2, 2)
	if err != nil {
		log.Fatal(err)
	}
	a.Fill(func(i, j int) float64 {
		switch i - j {
		case 0:
			return 2
		case 1, -1:
			return -1
		}
		return 0
	})
	all, _, err := peigs.Standard(a, nil, peigs.All(), nil)
	if err != nil {
		log.Fatal(err)
	}
	// The second and third smallest, and those in (1.5, 4].
	mid, _, err := peigs.Standard(a, nil, peigs.Index(1, 2), nil)
	if err != nil {
		log.Fatal(err)
	}
	high, _, err := peigs.Standard(a, nil, peigs.Value(1.5, 4), nil)
	if err != nil {
		log.Fatal(err)
	}
	if mpi.World().Rank() == 0 {
		fmt.Printf("%.6f\n%.6f\n%.6f\n", all, mid, high)
	}
	// Output:
	// [0.267949 1.000000 2.000000 3.000000 3.732051]
	// [1.000000 2.000000]
	// [2.000000 3.000000 3.732051]
}

// A generalized problem A·x = λ·S·x with S = 2·I halves the eigenvalues;
// S's factor serves every solve with that S.
func ExampleGeneralized() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	g, err := blacs.GridInit(mpi.World(), blacs.RowMajor, 1, mpi.World().Size())
	if err != nil {
		log.Fatal(err)
	}
	defer g.Exit()
	a, _ := scalapack.NewMatrix[float64](g, 3, 3, 2, 2)
	s, _ := scalapack.NewMatrix[float64](g, 3, 3, 2, 2)
	a.Fill(func(i, j int) float64 { return float64(min(i, j) + 1) }) // [[1 1 1] [1 2 2] [1 2 3]]
	s.Fill(func(i, j int) float64 {
		if i == j {
			return 2
		}
		return 0
	})
	f, err := peigs.Factorize(s, nil)
	if err != nil {
		log.Fatal(err)
	}
	vals, _, err := peigs.Generalized(1, a, f, nil, peigs.All(), nil)
	if err != nil {
		log.Fatal(err)
	}
	std, _, err := peigs.Standard(a, nil, peigs.All(), nil)
	if err != nil {
		log.Fatal(err)
	}
	if mpi.World().Rank() == 0 {
		fmt.Printf("%.6f\n%.6f\n", vals, std)
	}
	// Output:
	// [0.153989 0.321552 2.524459]
	// [0.307979 0.643104 5.048917]
}
