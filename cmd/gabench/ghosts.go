package main

import "github.com/goga-hpc/goga/ga"

// ghostUpdate times UpdateGhosts on a 2048 × 2048 array with ghost width 1,
// 50 updates between syncs as gabench.c does (after 50 untimed), and, as
// its limit, every
// process copying the halo's bytes once, in place: each ghost cell of its
// block set from the element across the block that a periodic update of a
// single block would copy, in the array's own storage, so with the same
// access pattern (a column of the halo is one element from each of
// thousands of rows) but nothing to agree on and no other process's memory.
func ghostUpdate() error {
	const n, reps = 2048, 50
	a, err := ga.CreateGhosts[float64]("ghosts", []int{n, n}, []int{1, 1}, nil)
	if err != nil {
		return err
	}
	if err := a.Fill(1); err != nil {
		return err
	}
	// 50 updates untimed first: the first tens of a fresh job take 20 to
	// 60 µs each here, alternating, before they settle (gabench.c times
	// its first 50, with no warm-up).
	for range reps {
		if err := a.UpdateGhosts(); err != nil {
			return err
		}
	}
	if err := timeColl("update_ghosts_us", n, reps, a.UpdateGhosts); err != nil {
		return err
	}
	copyHalo := func() error { return nil }
	ext, accessed := a.GhostDims()
	if accessed {
		data, _, _, _, err := a.AccessGhosts()
		if err != nil {
			return err
		}
		rows, cols := ext[0], ext[1]
		copyHalo = func() error {
			for r := 1; r < rows-1; r++ {
				row := data[r*cols : (r+1)*cols]
				row[0], row[cols-1] = row[cols-2], row[1]
			}
			copy(data[:cols], data[(rows-2)*cols:(rows-1)*cols])
			copy(data[(rows-1)*cols:], data[cols:2*cols])
			return nil
		}
	}
	for range reps {
		copyHalo()
	}
	if err := timeColl("update_ghosts_copy_limit_us", n, reps, copyHalo); err != nil {
		return err
	}
	if accessed {
		if err := a.ReleaseUpdateGhosts(); err != nil {
			return err
		}
	}
	return a.Destroy()
}
