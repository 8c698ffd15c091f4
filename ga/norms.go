package ga

import (
	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/mpi"
)

// Norm1 returns the sum of |a| over all of a's elements, for a matrix as
// for a vector (GA_Norm1). That is what GA C computes, though the manual
// calls it the 1-norm (for a matrix, the largest column sum). It is
// collective, and every process gets the result, in float64 as GA's double
// for every element type.
func (a *Array[T]) Norm1() (float64, error) { return a.norm("Norm1", false) }

// NormInfinity returns the largest |a| over all of a's elements, for a
// matrix as for a vector (GA_Norm_infinity), as GA C computes it (the
// manual's wording is an erratum). It is collective, and every process gets
// the result, in float64 for every element type.
func (a *Array[T]) NormInfinity() (float64, error) { return a.norm("NormInfinity", true) }

// norm returns the maximum of |a| over every element if inf, else the sum.
func (a *Array[T]) norm(op string, inf bool) (float64, error) {
	norms := kernels.Of[T]().Norms
	var part float64
	o := mpi.Sum
	if inf {
		o = mpi.Max
	}
	err := collectiveReduce(a, op, nil, nil, &part, o, func(local []T) error {
		for _, s := range a.spans {
			sum, most := norms(local[s.Off : s.Off+s.N])
			if inf {
				part = max(part, most)
			} else {
				part += sum
			}
		}
		return nil
	})
	return part, err
}
