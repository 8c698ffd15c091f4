package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
)

// TestReadCache: an array with the read_cache property reads the blocks
// of other nodes through its node's cache, filled as they are first read,
// with the array's values, on one machine's nodes and on simulated ones;
// writes are refused; UnsetProperty frees the cache and gets read the
// array's new values; Destroy frees it too.
func TestReadCache(t *testing.T) { onNodes(t, testReadCache) }

func testReadCache(t *testing.T) {
	dims := []int{7, 5}
	ref := pattern(dims, func(i int) float64 { return float64(2*i + 1) })
	several := ga.ClusterNnodes() > 1
	mem0 := ga.InquireMemory()
	regular, cyclic := twoLayouts(t, dims)
	for _, a := range []*ga.Array[float64]{regular, cyclic} {
		putAll(t, a, ref)
		mem := ga.InquireMemory()
		must(t, a.SetProperty("read_cache"))
		if grew := ga.InquireMemory() > mem; grew != several {
			t.Errorf("%s: memory in use %d after SetProperty, %d before: a cache counted %v, want %v", a.Name(), ga.InquireMemory(), mem, grew, several)
		}
		remote := 0
		for b := range a.TotalBlocks() {
			if ga.ClusterProcNodeid(a.BlockOwner(b)) != ga.ClusterNodeid() {
				remote++
			}
		}
		if want := map[bool]int{true: 0, false: -1}[several]; ga.CachedBlocks(a) != want {
			t.Errorf("%s: %d blocks cached before any get, want %d", a.Name(), ga.CachedBlocks(a), want)
		}
		for range 2 {
			sameElems(t, a.Name()+" by Get through the cache", getAll(t, a), ref)
		}
		if several && ga.CachedBlocks(a) != remote {
			t.Errorf("%s: %d blocks read from the cache, want the %d of other nodes", a.Name(), ga.CachedBlocks(a), remote)
		}
		// A patch into a buffer wider than it.
		buf := make([]float64, 5*4)
		must(t, a.Get([]int{1, 1}, []int{5, 3}, buf, []int{4}))
		for i := range 5 {
			for j := range 3 {
				if got, want := buf[i*4+j], ref[(1+i)*5+1+j]; got != want {
					t.Errorf("%s: patch element (%d, %d) = %v, want %v", a.Name(), 1+i, 1+j, got, want)
				}
			}
		}
		wantErr(t, "Put", a.Put([]int{0, 0}, []int{0, 0}, buf[:1], nil), "Put", a.Name(), ga.ErrReadOnly)
		wantErr(t, "set twice", a.SetProperty("read_only"), "SetProperty", a.Name(), nil, "already")
		wantErr(t, "unknown property", a.SetProperty("write_cache"), "SetProperty", a.Name(), nil, `"write_cache"`)
		sameElems(t, a.Name()+" after refused calls", getAll(t, a), ref)

		// Unset: the cache is gone and gets read the array's new values;
		// set again, the cache fills with them.
		must(t, a.UnsetProperty())
		if ga.CachedBlocks(a) != -1 || ga.InquireMemory() != mem {
			t.Errorf("%s: after UnsetProperty %d blocks cached, memory %d (was %d)", a.Name(), ga.CachedBlocks(a), ga.InquireMemory(), mem)
		}
		must(t, a.Scale(2))
		twice := pattern(dims, func(i int) float64 { return 2 * ref[i] })
		sameElems(t, a.Name()+" after Scale", getAll(t, a), twice)
		must(t, a.SetProperty("read_cache"))
		sameElems(t, a.Name()+" through a new cache", getAll(t, a), twice)
		ref = twice
	}
	// Destroy while read_cache frees the cache with the array.
	must(t, cyclic.Destroy())
	must(t, regular.Destroy())
	if ga.InquireMemory() != mem0 {
		t.Errorf("memory in use %d after Destroy of read_cache arrays, %d before", ga.InquireMemory(), mem0)
	}
}
