package h5_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestErrors: every mistake and fault is an error on every process that
// names the file, the dataset and what was wrong; a mistake changes
// nothing, so the file is still published whole at Close.
func TestErrors(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		me, np := ga.Nodeid(), ga.Nnodes()
		missing := filepath.Join(dir, "missing.h5")
		_, err := h5.Open(missing, h5.ModeRead)
		wantErr(t, "Open of a missing file", err, h5.ErrNotFound, missing)
		text := filepath.Join(dir, "text.h5")
		onRoot(t, func() error {
			return os.WriteFile(text, []byte("not HDF5 at all, but long enough to look at\n"), 0o644)
		})
		_, err = h5.Open(text, h5.ModeReadWrite)
		wantErr(t, "Open of a text file", err, h5.ErrFormat, text)
		if _, err := os.Stat(text + ".partial"); !os.IsNotExist(err) {
			t.Errorf("after a failed Open: %s.partial exists (%v)", text, err)
		}
		_, err = h5.Open(text, h5.Mode(7))
		wantErr(t, "Open with a bad mode", err, nil, "Mode(7)")

		name := filepath.Join(dir, "e.h5")
		f, err := h5.Create(name)
		must(t, err)
		g := newArray[float64](t, "u", []int{9, 11})
		defer mpitest.Cleanup(t, g.Destroy)
		must(t, h5.Write(f, "run/u", g, nil))
		wantErr(t, "Write to a dataset that exists", h5.Write(f, "run/u", g, nil), h5.ErrExists, "run/u", name)
		wantErr(t, "Write over a group", h5.Write(f, "run", g, nil), h5.ErrExists, "run")
		wantErr(t, "chunk larger than dims", h5.Write(f, "v", g, &h5.Options{Chunk: []int{10, 2}}), nil, "chunk [10 2]", "[9 11]")
		wantErr(t, "a bad path", h5.Write(f, "a//b", g, nil), nil, "a//b")
		chunk := []int{3, 3}
		if me == np-1 {
			chunk = []int{0, 3}
		}
		err = h5.Write(f, "w", g, &h5.Options{Chunk: chunk})
		wantErr(t, "a chunk refused on the last process", err, nil, "chunk [0 3]")
		if me != np-1 {
			wantErr(t, "the others learn it", err, h5.ErrPeer)
		}
		if np > 1 {
			path := "x"
			if me == 1 {
				path = "y"
			}
			wantErr(t, "different paths", h5.Write(f, path, g, nil), h5.ErrArgs)
		}
		i32, err := ga.Create[int32]("i", []int{9, 11}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, i32.Destroy)
		wantErr(t, "Read of float64 into int32", h5.Read(f, "run/u", i32), h5.ErrMismatch, "float64", "int32", "run/u", name)
		small, err := ga.Create[float64]("s", []int{9, 10}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, small.Destroy)
		wantErr(t, "Read into other dims", h5.Read(f, "run/u", small), h5.ErrMismatch, "[9 11]", "[9 10]")
		wantErr(t, "Read of a missing dataset", h5.Read(f, "run/nothing", g), h5.ErrNotFound, "run/nothing", name)
		wantErr(t, "Read of a group", h5.Read(f, "run", g), h5.ErrNotFound, "group")
		wantErr(t, "Read under a dataset", h5.Read(f, "run/u/x", g), h5.ErrNotFound, "run/u/x")
		wantErr(t, "ReadSection outside", h5.ReadSection(false, g, []int{0, 0}, []int{1, 1}, f, "run/u", []int{8, 10}, []int{9, 11}), h5.ErrMismatch, "hyperslab")
		wantErr(t, "WriteSection of another shape", h5.WriteSection(false, g, []int{0, 0}, []int{1, 2}, f, "run/u", []int{0, 0}, []int{2, 1}), h5.ErrMismatch, "shape")
		_, err = f.Attr("run/u", "nothing")
		wantErr(t, "Attr missing", err, h5.ErrNotFound, "nothing", "run/u")
		wantErr(t, "SetAttr on a missing object", f.SetAttr("run/v", "units", "m"), h5.ErrNotFound, "run/v")
		wantErr(t, "SetAttr of a map", f.SetAttr("run/u", "m", map[int]int{}), nil, "map[int]int")
		wantErr(t, "CreateGroup that exists", f.CreateGroup("run"), h5.ErrExists, "run")
		must(t, f.Close())
		wantErr(t, "Close twice", f.Close(), h5.ErrClosed)
		wantErr(t, "Write after Close", h5.Write(f, "z", g, nil), h5.ErrClosed)

		// The mistakes left the file whole.
		f, err = h5.Open(name, h5.ModeRead)
		must(t, err)
		must(t, g.Fill(0))
		must(t, h5.Read(f, "run/u", g))
		wantVal(t, "Read after the mistakes", whole(t, g))
		wantErr(t, "Write to a file opened for reading", h5.Write(f, "z", g, nil), h5.ErrReadOnly, name)
		must(t, f.Close())
	})
}

// TestFullDisk: a dataset that does not fit on the disk is an error on
// every process, and Close then leaves nothing under the file's name.
func TestFullDisk(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		mnt := mountTmpfs(t, dir)
		if mnt == "" {
			return
		}
		name := filepath.Join(mnt, "full.h5")
		f, err := h5.Create(name)
		must(t, err)
		g := newArray[float64](t, "big", []int{64, 256}) // 128 KiB on a disk of 64
		defer mpitest.Cleanup(t, g.Destroy)
		wantErr(t, "Write on a full disk", h5.Write(f, "big", g, nil), nil, name, "big", "no space left on device")
		wantErr(t, "Close after the failure", f.Close(), nil, "no space left on device")
		absent(t, "after a full disk", name)
	}, mpitest.Ranks(1, 2))
}

// mountTmpfs mounts a tmpfs of 64 KiB on a new directory under dir, from
// process 0, and returns its path; "" (the test then passes without
// checking, saying so) where mounting is not allowed.
func mountTmpfs(t *testing.T, dir string) string {
	t.Helper()
	mnt := filepath.Join(dir, "small")
	var why error
	if ga.Nodeid() == 0 {
		if why = os.Mkdir(mnt, 0o755); why == nil {
			why = syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=64k")
		}
	}
	ok := []int{1}
	if why != nil {
		ok[0] = 0
		t.Logf("cannot mount a tmpfs (%v): the full disk is not tested", why)
	}
	must(t, mpi.Bcast(mpi.World(), ok, 0))
	if ok[0] == 0 {
		return ""
	}
	if ga.Nodeid() == 0 {
		t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	}
	return mnt
}
