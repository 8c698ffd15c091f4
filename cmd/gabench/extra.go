package main

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// extraOnly is the argument that makes gabench time what
// bench/ref/gabench.c does not, alone, under the metric names of
// scripts/gaextrabench.c, its GA C counterpart, for make bench-2node to set
// the two side by side: GA's mutexes, Create and Destroy, Brdcst and Gop,
// Scatter and Gather, and gets from a process that waits or computes.
const extraOnly = "-extra"

func extra() bool { return len(os.Args) > 1 && os.Args[1] == extraOnly }

// extraBench runs the extra figures in gaextrabench.c's order; it is
// collective.
func extraBench() error {
	if err := mutexBench(); err != nil {
		return err
	}
	if err := smallCollectives(); err != nil {
		return err
	}
	if err := scatterGather(); err != nil {
		return err
	}
	return pausedGets()
}

// mutexBench times GA's mutexes on the mutex that the last rank hosts:
// rank 0 locking and unlocking it alone (lock_unlock_us), then every rank
// updating a counter on the last rank under it (locked_counter_us: lock,
// get, add one, put, unlock; per update of one rank). It is collective.
func mutexBench() error {
	np := ga.Nnodes()
	last := np - 1
	if err := ga.CreateMutexes(np); err != nil { // mutex i lives on rank i mod np
		return err
	}
	c, err := counter()
	if err != nil {
		return err
	}
	const n = 2000
	if err := ga.Sync(); err != nil {
		return err
	}
	if me == 0 {
		t := mpi.Wtime()
		for range n {
			if err := ga.Lock(last); err != nil {
				return err
			}
			if err := ga.Unlock(last); err != nil {
				return err
			}
		}
		emit("lock_unlock_us", np, (mpi.Wtime()-t)/n*1e6, "us")
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	at := []int{last}
	v := []int64{0}
	t := mpi.Wtime()
	for range n {
		if err := ga.Lock(last); err != nil {
			return err
		}
		if err := c.Get(at, at, v, nil); err != nil {
			return err
		}
		v[0]++
		if err := c.Put(at, at, v, nil); err != nil {
			return err
		}
		if err := ga.Unlock(last); err != nil {
			return err
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	emit("locked_counter_us", np, (mpi.Wtime()-t)/n*1e6, "us")
	if err := settleCounter(c, at, int64(n*np), "locked counter"); err != nil {
		return err
	}
	return ga.DestroyMutexes()
}

// counter makes an int64 array of one zero per rank; it is collective.
func counter() (*ga.Array[int64], error) {
	c, err := ga.Create[int64]("counter", []int{ga.Nnodes()}, []int{1})
	if err != nil {
		return nil, err
	}
	return c, c.Zero()
}

// settleCounter checks that counter c holds want at sub, then destroys it;
// it is collective.
func settleCounter(c *ga.Array[int64], sub []int, want int64, what string) error {
	got := []int64{0}
	if err := c.Get(sub, sub, got, nil); err != nil {
		return err
	}
	if got[0] != want {
		return fmt.Errorf("%s %d, want %d", what, got[0], want)
	}
	return c.Destroy()
}

// smallCollectives times, per call, every rank creating and destroying a
// 100 × 100 array (create_destroy_us), Brdcst of 8 bytes from rank 0
// (brdcst_8_us) and Gop of one float64 (dgop_8_us).
func smallCollectives() error {
	np := ga.Nnodes()
	const nc = 200
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	for range nc {
		a, err := ga.Create[float64]("t", []int{100, 100}, nil)
		if err != nil {
			return err
		}
		if err := a.Destroy(); err != nil {
			return err
		}
	}
	emit("create_destroy_us", np, (mpi.Wtime()-t)/nc*1e6, "us")
	const nb = 2000
	b := []float64{1}
	for _, op := range []string{"brdcst_8_us", "dgop_8_us"} {
		if err := ga.Sync(); err != nil {
			return err
		}
		t = mpi.Wtime()
		for range nb {
			var err error
			if op == "brdcst_8_us" {
				err = ga.Brdcst(b, 0)
			} else {
				err = ga.Gop(b, ga.OpSum)
			}
			if err != nil {
				return err
			}
		}
		emit(op, np, (mpi.Wtime()-t)/nb*1e6, "us")
	}
	return nil
}

// scatterGather times rank 0 scattering and gathering 1000 elements spread
// over a 1000 × 1000 array of the default distribution (scatter_1000_us,
// gather_1000_us).
func scatterGather() error {
	a, err := ga.Create[float64]("a", []int{1000, 1000}, nil)
	if err != nil {
		return err
	}
	if err := a.Fill(1); err != nil {
		return err
	}
	const k, ns = 1000, 200
	subs := make([][]int, k)
	vals := make([]float64, k)
	for i := range subs {
		subs[i] = []int{i * 7919 % 1000, i * 104729 % 1000}
		vals[i] = float64(i)
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	if me == 0 {
		t := mpi.Wtime()
		for range ns {
			if err := a.Scatter(vals, subs); err != nil {
				return err
			}
		}
		emit("scatter_1000_us", ga.Nnodes(), (mpi.Wtime()-t)/ns*1e6, "us")
		t = mpi.Wtime()
		for range ns {
			if err := a.Gather(vals, subs); err != nil {
				return err
			}
		}
		emit("gather_1000_us", ga.Nnodes(), (mpi.Wtime()-t)/ns*1e6, "us")
		for i, v := range vals {
			if v != float64(i) {
				return fmt.Errorf("gather: element %v is %v, want %v", subs[i], v, i)
			}
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	return a.Destroy()
}

// pausedGets times single 8-byte gets by rank 0 from the last rank's block
// after 5 ms without requests, the median of 15: while the last rank waits
// in ga.Sync (get_after_wait_us), and while it computes for 20 ms outside
// any GA or MPI call (get_from_busy_us), where a runtime that needs the
// target's help must wait for it to enter one; then spacedGets. It is
// collective.
func pausedGets() error {
	np, last := ga.Nnodes(), ga.Nnodes()-1
	a, err := ga.Create[float64]("a", []int{np}, []int{1})
	if err != nil {
		return err
	}
	if err := a.Fill(1); err != nil {
		return err
	}
	at, v := []int{last}, []float64{0}
	for _, busy := range []bool{false, true} {
		var took []float64
		for range 15 {
			if err := ga.Sync(); err != nil {
				return err
			}
			switch me {
			case 0:
				time.Sleep(5 * time.Millisecond)
				t := mpi.Wtime()
				if err := a.Get(at, at, v, nil); err != nil {
					return err
				}
				took = append(took, (mpi.Wtime()-t)*1e6)
				if v[0] != 1 {
					return fmt.Errorf("get after a pause: %v, want 1", v[0])
				}
			case last:
				if busy {
					for t := time.Now(); time.Since(t) < 20*time.Millisecond; {
					}
				}
			}
		}
		if me == 0 {
			slices.Sort(took)
			name := "get_after_wait_us"
			if busy {
				name = "get_from_busy_us"
			}
			emit(name, np, took[len(took)/2], "us")
		}
	}
	if err := spacedGets(a); err != nil {
		return err
	}
	return a.Destroy()
}

// spacedGets times 8-byte gets by rank 0 from the last rank while it
// computes for 40 ms outside any GA or MPI call, 8 gets 1 ms apart, as a
// worker would read a shared counter between tasks (get_spaced_from_busy_us:
// the mean over 5 rounds, so that a get that waits for the computation's
// end counts with its whole wait). It is collective.
func spacedGets(a *ga.Array[float64]) error {
	last := ga.Nnodes() - 1
	at, v := []int{last}, []float64{0}
	var sum float64
	const rounds, gets = 5, 8
	for range rounds {
		if err := ga.Sync(); err != nil {
			return err
		}
		switch me {
		case 0:
			time.Sleep(2 * time.Millisecond)
			for range gets {
				t := mpi.Wtime()
				if err := a.Get(at, at, v, nil); err != nil {
					return err
				}
				sum += mpi.Wtime() - t
				for t := time.Now(); time.Since(t) < time.Millisecond; {
				}
			}
		case last:
			for t := time.Now(); time.Since(t) < 40*time.Millisecond; {
			}
		}
	}
	if me == 0 {
		emit("get_spaced_from_busy_us", ga.Nnodes(), sum/(rounds*gets)*1e6, "us")
	}
	return ga.Sync()
}
