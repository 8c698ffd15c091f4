package ga

import "github.com/goga-hpc/goga/ga/internal/kernels"

// Randomize fills a with random values scaled by val (GA_Randomize), drawn
// from seed: the element at C-order position l gets SplitMix64's l-th output
// for seed (a complex element the 2l-th and the 2l+1-th, for its real and
// imaginary parts), so that a seed gives the same array whatever its
// distribution and number of processes. The values are uniform in [0, val)
// (in (val, 0] for a negative val): real ones as val·u for u uniform over the
// multiples of 2⁻²⁴ (float32) or 2⁻⁵³ (float64) in [0, 1); integers over
// every integer of that range; the two parts of a complex element each
// scaled by val's part. GA C scales the C library's rand(), process by
// process, and refuses complex arrays. It is collective.
func (a *Array[T]) Randomize(val T, seed uint64) error {
	const op = "Randomize"
	fill := kernels.Random(val)
	return a.collective(op, newArgs(op).ints("seed", int(seed)), nil, func(local []T) error {
		lo, hi := a.whole()
		return a.regions(lo, hi, func(r region) error {
			rw := r.hi[len(r.hi)-1] - r.lo[len(r.lo)-1] + 1
			r.runs(func(off, at, n int) {
				// A run is whole rows of the region, each contiguous in a.
				for k := 0; k < n; k += rw {
					fill(local[off+k:off+k+rw], seed, uint64(r.linear(a.dims, at+k)))
				}
			})
			return nil
		})
	})
}
