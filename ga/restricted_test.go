package ga_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestRestricted: an array restricted to some processes, listed out of
// order, lives on them only, block i on the i-th listed; the others own
// nothing yet put, get and take part in collectives; bad lists are refused
// on every process with nothing allocated. 1-4 processes, shared memory
// and TCP.
func TestRestricted(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		np, me := ga.Nnodes(), ga.Nodeid()
		list := restrictionList(np)
		dims := []int{7, 5}
		a, err := ga.New[float64](dims...).Name("restricted").SetRestricted(list...).Allocate()
		must(t, err)
		defer destroy(t, a)

		// Ownership: the listed processes cover the array once, block 0
		// (holding [0 0]) on the first listed; the others own nothing.
		owned := make([]int, total(dims))
		for r := range np {
			lo, hi, ok := a.Distribution(r)
			if !slices.Contains(list, r) {
				if ok {
					t.Errorf("process %d, not listed, owns lo %v hi %v", r, lo, hi)
				}
				continue
			}
			if ok {
				eachSub(lo, hi, func(sub []int) { owned[linear(dims, sub)]++ })
			}
		}
		for l, n := range owned {
			if n != 1 {
				t.Errorf("element %d is owned %d times", l, n)
			}
		}
		if r, err := a.Locate([]int{0, 0}); err != nil || r != list[0] {
			t.Errorf("Locate([0 0]) = %d, %v; want the first listed process %d", r, err, list[0])
		}
		if r, err := a.Locate([]int{6, 4}); err != nil || !slices.Contains(list, r) {
			t.Errorf("Locate([6 4]) = %d, %v; want a listed process", r, err)
		}

		// Every process writes a row one-sidedly, listed or not.
		want := make([]float64, total(dims))
		for r := range dims[0] {
			for j := range dims[1] {
				want[r*dims[1]+j] = float64(100*(r%np) + 10*r + j)
			}
		}
		for r := me; r < dims[0]; r += np {
			must(t, a.Put([]int{r, 0}, []int{r, dims[1] - 1}, want[r*dims[1]:(r+1)*dims[1]], nil))
		}
		must(t, ga.Sync())
		sameElems(t, "rows put by every process", getAll(t, a), want)

		// Collectives with an ordinary array.
		b, err := ga.Create[float64]("plain", dims, nil)
		must(t, err)
		defer destroy(t, b)
		must(t, b.Fill(1))
		must(t, a.Fill(2))
		must(t, a.Scale(3))
		dot, err := ga.Dot(a, b)
		must(t, err)
		if dot != float64(6*total(dims)) {
			t.Errorf("Dot = %v, want %v", dot, 6*total(dims))
		}
		must(t, ga.Add(1, a, 1, b, b))
		sevens := make([]float64, total(dims))
		for i := range sevens {
			sevens[i] = 7
		}
		sameElems(t, "Add of the restricted array into a plain one", getAll(t, b), sevens)
		d, err := a.Duplicate("dup")
		must(t, err)
		defer destroy(t, d)
		if !ga.CompareDistr(a, d) {
			t.Errorf("a duplicate is not distributed like its restricted original")
		}
		must(t, ga.Copy(b, d))
		sameElems(t, "Copy into the duplicate", getAll(t, d), sevens)

		// SetRestrictedRange: all on process 0.
		z, err := ga.New[int32](5).Name("zero").SetRestrictedRange(0, 0).Allocate()
		must(t, err)
		defer destroy(t, z)
		if lo, hi, ok := z.Distribution(0); !ok || lo[0] != 0 || hi[0] != 4 {
			t.Errorf("Distribution(0) of a range of 0 to 0 = %v %v %v, want all", lo, hi, ok)
		}

		// Bad lists: an error on every process, nothing allocated.
		mem := ga.InquireMemory()
		for _, c := range []struct {
			what string
			b    *ga.Builder[float64]
		}{
			{"a repeated process", ga.New[float64](4, 4).Name("bad").SetRestricted(0, 0)},
			{"a process out of range", ga.New[float64](4, 4).Name("bad").SetRestricted(np)},
			{"no process", ga.New[float64](4, 4).Name("bad").SetRestricted()},
			{"ghost cells wider than the block", ga.New[float64](4, 4).Name("bad").SetRestricted(0).Ghosts(5, 1)},
			{"a process grid of more processes than listed", ga.New[float64](4, 4).Name("bad").SetRestricted(0).BlockCyclicGrid([]int{2, 2}, []int{2, 1})},
		} {
			_, err := c.b.Allocate()
			wantErr(t, "Allocate restricted with "+c.what, err, "Allocate", "bad", nil)
		}
		if got := ga.InquireMemory(); got != mem {
			t.Errorf("memory in use went from %d to %d bytes through refused creations", mem, got)
		}
		must(t, ga.Sync())
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestRestrictedGhosts: an array with ghost cells restricted to some of
// the processes (in another order than the group's) updates its halos on
// them as an unrestricted one does (GA's ghost code takes restricted
// arrays), periodic wrap included; the others own nothing and hold no
// halo.
func TestRestrictedGhosts(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		np, me := ga.Nnodes(), ga.Nodeid()
		list := []int{np - 1}
		if np > 2 {
			list = append(list, 0)
		}
		dims, width := []int{9, 8}, []int{1, 2}
		a, err := ga.New[int64](dims...).Name("restricted ghosts").Ghosts(width...).SetRestricted(list...).Allocate()
		must(t, err)
		defer destroy(t, a)
		if _, ok := a.GhostDims(); ok != slices.Contains(list, me) {
			t.Errorf("process %d: holds a halo %v, listed %v", me, ok, slices.Contains(list, me))
		}
		ref := pattern(dims, func(i int) int64 { return int64(i + 1) })
		putAll(t, a, ref)
		setHalo(t, a, -1)
		must(t, a.UpdateGhosts())
		checkHalo(t, "restricted to "+fmt.Sprint(list), a, ref, all, -1)
		must(t, ga.Sync())
	})
}

// restrictionList is the processes the restricted tests list, out of the
// group's order: the last one, then 0 and 1 where they are others.
func restrictionList(np int) []int {
	list := []int{np - 1}
	for _, r := range []int{0, 1} {
		if r < np-1 {
			list = append(list, r)
		}
	}
	return list
}
