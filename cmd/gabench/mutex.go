package main

import (
	"fmt"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// mutexOnly is the argument that makes gabench time GA's mutexes alone,
// under scripts/gamutexbench.c's metric names, for make bench-2node to set
// beside that program's figures for GA C (../shared/anchor's gabench.c has
// no mutexes).
const mutexOnly = "-mutexes"

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
	c, err := ga.Create[int64]("counter", []int{np}, []int{1})
	if err != nil {
		return err
	}
	if err := c.Zero(); err != nil {
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
	if err := c.Get(at, at, v, nil); err != nil {
		return err
	}
	if v[0] != int64(n*np) {
		return fmt.Errorf("locked counter %d, want %d", v[0], n*np)
	}
	if err := c.Destroy(); err != nil {
		return err
	}
	return ga.DestroyMutexes()
}
