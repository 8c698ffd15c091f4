package main

import "github.com/goga-hpc/goga/ga"

// ghostUpdate times UpdateGhosts on a 2048 × 2048 array with ghost width 1,
// 50 updates between syncs as gabench.c does, and, as its limit, one plain
// copy of as many bytes as this process's halo holds, on every process
// between syncs.
func ghostUpdate() error {
	const n, reps = 2048, 50
	a, err := ga.CreateGhosts[float64]("ghosts", []int{n, n}, []int{1, 1}, nil)
	if err != nil {
		return err
	}
	if err := a.Fill(1); err != nil {
		return err
	}
	if err := timeColl("update_ghosts_us", n, reps, a.UpdateGhosts); err != nil {
		return err
	}
	halo := 0
	if ext, ok := a.GhostDims(); ok {
		lo, hi, _ := a.Distribution(ga.Nodeid())
		halo = ext[0]*ext[1] - (hi[0]-lo[0]+1)*(hi[1]-lo[1]+1)
	}
	src, dst := make([]float64, halo), make([]float64, halo)
	copy(dst, src) // the pages are faulted in, as the array's are
	if err := timeColl("update_ghosts_copy_limit_us", n, reps, func() error { copy(dst, src); return nil }); err != nil {
		return err
	}
	return a.Destroy()
}
