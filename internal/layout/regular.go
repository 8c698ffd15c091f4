package layout

import "fmt"

// Regular returns the distribution GA gives an array of dims over nproc
// processes when the caller names no block boundaries: chunk[d] > 1 asks for
// blocks of at least chunk[d] elements along d (a multiple of it), anything
// else lets the heuristic choose; chunk may be nil.
//
// It reproduces the GA C library's choice (ddb_h2 and the map that
// GA_Allocate derives from it; checked against GA 5.8's NGA_Distribution in
// testdata/ga_distribution.tsv): the prime factors of nproc, largest first,
// go one at a time to the dimension they divide most evenly, taking the
// dimensions in turn; each dimension is then cut into blocks of
// ceil(extent/procs) elements, the last ones a chunk shorter where the extent
// does not divide, and a dimension gets fewer blocks than processes when
// that many cover it.
func Regular(dims, chunk []int, nproc int) (Map, error) {
	n := len(dims)
	if n < 1 || n > MaxDim {
		return Map{}, fmt.Errorf("%d dimensions; want 1 to %d", n, MaxDim)
	}
	if chunk != nil && len(chunk) != n {
		return Map{}, fmt.Errorf("%d chunk sizes for %d dimensions", len(chunk), n)
	}
	if nproc < 1 {
		return Map{}, fmt.Errorf("%d processes", nproc)
	}
	for d, x := range dims {
		if x < 1 {
			return Map{}, fmt.Errorf("dimension %d has extent %d", d, x)
		}
	}
	// GA works in Fortran order (the first index fastest): reverse.
	fd, ch := make([]int, n), make([]int, n)
	for i := range n {
		fd[i] = dims[n-1-i]
		ch[i] = -1
		if chunk != nil {
			ch[i] = min(chunk[n-1-i], fd[i])
		}
	}
	// Granularity: how many chunks each dimension holds.
	units := make([]int, n)
	for i := range n {
		g := ch[i]
		if fd[i] == 1 || g < 1 {
			g = 1
		}
		units[i] = (fd[i] + g - 1) / g
	}
	pe := make([]int, n)
	for i := range pe {
		pe[i] = 1
	}
	primes := primeFactors(nproc)
	start := 0
	for k := len(primes) - 1; k >= 0; k-- {
		p := primes[k]
		best, bestq := start, unevenness(units[start], p*pe[start])
		for j := 1; j < n; j++ {
			i := (start + j) % n
			if q := unevenness(units[i], p*pe[i]); q < bestq {
				best, bestq = i, q
			}
		}
		pe[best] *= p
		start = (start + 1) % n
	}
	starts := make([][]int, n)
	for i := range n {
		blk := (units[i] + pe[i] - 1) / pe[i] // chunks per block
		size := 1
		if ch[i] > 1 {
			size = ch[i]
		}
		cut := units[i] - (blk-1)*pe[i] // blocks that get the full blk
		var s []int
		for p, at := 0, 0; p < pe[i] && at < fd[i]; p++ {
			b := blk
			if p >= cut {
				b--
			}
			s = append(s, at)
			at += b * size
		}
		starts[n-1-i] = s
	}
	return Map{Dims: append([]int(nil), dims...), Starts: starts}, nil
}

// unevenness is GA's measure of how badly p processes split u units: the
// leftover fraction, or more than any fraction when there are more processes
// than units.
func unevenness(u, p int) float64 {
	if u < p {
		return 1.1
	}
	return float64(u%p) / float64(u)
}

// primeFactors returns n's prime factors with repetition, ascending.
func primeFactors(n int) []int {
	var f []int
	for p := 2; p*p <= n; p++ {
		for n%p == 0 {
			f = append(f, p)
			n /= p
		}
	}
	if n > 1 {
		f = append(f, n)
	}
	return f
}
