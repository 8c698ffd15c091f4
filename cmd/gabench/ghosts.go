package main

import "github.com/goga-hpc/goga/ga"

// ghostUpdate times UpdateGhosts on a 2048 × 2048 array with ghost width 1,
// 50 updates between syncs as gabench.c does (after warmUp's untimed
// ones), and, as its limit, every
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
	if err := warmUp(a.UpdateGhosts); err != nil {
		return err
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
	if err := warmUp(copyHalo); err != nil {
		return err
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

// warmUp calls op 1000 times untimed (15 to 60 ms here; a count, not a
// time, so that every process makes the same collective calls). After a
// long cgo call (the setup's MPI calls, the solvers before) the Go
// runtime's monitor thread (sysmon) wakes every 20 µs and backs off over a
// few milliseconds; with each rank bound to one core, as mpirun binds two
// ranks, each wake-up takes that core from the rank for about 15 µs on this
// virtual machine (measured from /proc's per-thread run times: 22 to 32
// wake-ups during each of the first two sets of 50 updates, 1 in later
// ones). The updates timed after it are a stencil loop's steady state;
// gabench.c's first 50 are GA C's, which has no such thread.
func warmUp(op func() error) error {
	for range 1000 {
		if err := op(); err != nil {
			return err
		}
	}
	return nil
}
