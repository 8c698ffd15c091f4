package ga

// CountSketch returns the count sketch of the matrix with k rows
// (NGA_Sprs_array_count_sketch): each row i of S gets a label labels[i] in
// [0, k) and a weight weights[i] of +1 or -1, and row l of sketch, a new
// k × jdim array, is the sum of weights[i]·S[i, :] over the rows labelled
// l. labels and weights are new 1-D arrays of idim elements split as the
// rows are; all three live on the matrix's group. The labels and weights
// come from seed and the row alone, so that a seed gives the same sketch
// on any number of processes (GA C draws them from its generator per
// process). k must be from 1 to idim. GA C refuses 64-bit integer
// elements, which its accumulate lacks; goga's has them. It is collective.
func (s *Sparse[T]) CountSketch(k int, seed uint64) (sketch *Array[T], labels *Array[int32], weights *Array[T], err error) {
	const op = "SparseCountSketch"
	g, err := s.on(op)
	if err != nil {
		return nil, nil, nil, err
	}
	check := s.ready(op)
	if check == nil && (k < 1 || k > s.idim) {
		check = errorf(op, "", "sketch of %d rows; want 1 to %d, the matrix's rows", k, s.idim)
	}
	if err := opening(g, op, "", check, s.args(op).ints("k", k)); err != nil {
		return nil, nil, nil, err
	}
	sketch, err = New[T](k, s.jdim).Name("sketch").Pgroup(g.pg).allocate(op)
	if err == nil {
		labels, err = byRows[int32](g, op, "labels", s.idim)
		if err != nil {
			sketch.Destroy()
		}
	}
	if err == nil {
		weights, err = byRows[T](g, op, "weights", s.idim)
		if err != nil {
			sketch.Destroy()
			labels.Destroy()
		}
	}
	if err != nil {
		return nil, nil, nil, closing(g, op, "", err)
	}
	err = sketch.Zero()
	if err == nil {
		err = s.sketch(k, seed, sketch, labels, weights)
	}
	if err := closing(g, op, "", err); err != nil {
		sketch.Destroy()
		labels.Destroy()
		weights.Destroy()
		return nil, nil, nil, err
	}
	return sketch, labels, weights, nil
}

// sketch is CountSketch's work on this process's rows: their labels and
// weights, and their weighted sums added to the sketch's rows.
func (s *Sparse[T]) sketch(k int, seed uint64, sketch *Array[T], labels *Array[int32], weights *Array[T]) error {
	rows := s.ihi - s.ilo + 1
	if rows <= 0 {
		return nil
	}
	lab, wt := make([]int32, rows), make([]T, rows)
	byLabel := map[int32][]int{}
	for r := range rows {
		h := mix64(seed ^ mix64(uint64(s.ilo+r)))
		lab[r] = int32(h % uint64(k))
		wt[r] = 1
		if h>>63 == 1 {
			wt[r] = -wt[r]
		}
		byLabel[lab[r]] = append(byLabel[lab[r]], r)
	}
	if err := labels.Put([]int{s.ilo}, []int{s.ihi}, lab, nil); err != nil {
		return err
	}
	if err := weights.Put([]int{s.ilo}, []int{s.ihi}, wt, nil); err != nil {
		return err
	}
	buf := make([]T, s.jdim)
	for l, rs := range byLabel {
		clear(buf)
		for _, r := range rs {
			for _, c := range s.blocks {
				if c != nil {
					for e := c.idx[r]; e < c.idx[r+1]; e++ {
						buf[c.jdx[e]] += wt[r] * c.val[e]
					}
				}
			}
		}
		if err := sketch.Acc([]int{int(l), 0}, []int{int(l), s.jdim - 1}, buf, nil, 1); err != nil {
			return err
		}
	}
	return nil
}

// mix64 is SplitMix64's finalizer: a bijection of 64-bit words whose
// outputs for consecutive inputs look independent.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
