package dra_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/goga-hpc/goga/dra"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// wantErr checks that every process got an error wrapping sentinel (or,
// where another process failed, ErrPeer) that mentions each of values.
func wantErr(t *testing.T, what string, err error, sentinel error, values ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	var e *dra.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v (%T), want *dra.Error", what, err, err)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("%s: error %q does not wrap %v", what, err, sentinel)
	}
	for _, v := range values {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("%s: error %q does not mention %q", what, err, v)
		}
	}
}

// absent checks that nothing is under name, nor a partial file.
func absent(t *testing.T, what, name string) {
	t.Helper()
	for _, n := range []string{name, name + ".partial"} {
		if _, err := os.Stat(n); !os.IsNotExist(err) {
			t.Errorf("%s: %s exists (%v)", what, n, err)
		}
	}
}

// onRoot runs f on process 0, then every process goes on.
func onRoot(t *testing.T, f func() error) {
	t.Helper()
	var err error
	if ga.Nodeid() == 0 {
		err = f()
	}
	must(t, err)
	must(t, mpi.World().Barrier())
}

// mountTmpfs mounts a tmpfs of 64 KiB (read-only if ro) on a new directory
// name under dir, from process 0, and returns its path; "" where mounting
// is not allowed (not root).
func mountTmpfs(t *testing.T, dir, name string, ro bool) string {
	t.Helper()
	mnt := filepath.Join(dir, name)
	var why error
	if ga.Nodeid() == 0 {
		why = os.Mkdir(mnt, 0o755)
		var flags uintptr
		if ro {
			flags = syscall.MS_RDONLY
		}
		if why == nil {
			why = syscall.Mount("tmpfs", mnt, "tmpfs", flags, "size=64k")
		}
	}
	ok := []int{1}
	if why != nil {
		ok[0] = 0
	}
	must(t, mpi.Bcast(mpi.World(), ok, 0))
	if ok[0] == 0 {
		if why != nil {
			t.Logf("cannot mount a tmpfs (%v): skipped", why)
		}
		return ""
	}
	if ga.Nodeid() == 0 {
		t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	}
	return mnt
}

// TestFaults damages files and storage: every fault is an error on every
// process, leaves nothing under a new file's name, leaves an older file
// intact, and leaves the global array unchanged.
func TestFaults(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t, dra.Limits{})
		defer stop(t)
		dims := []int{19, 17}
		g, err := ga.Create[float64]("g", dims, nil)
		must(t, err)
		defer mpitest.Cleanup(t, g.Destroy)
		fill(t, g, val[float64])
		good := filepath.Join(dir, "good.dra")
		d, err := dra.Create[float64](dims, "good", good, dra.ModeWrite, []int{4, 17})
		must(t, err)
		must(t, done(dra.Write(g, d)))
		must(t, d.Close())
		st, err := os.Stat(good)
		must(t, err)
		size := int(st.Size())
		raw, err := os.ReadFile(good)
		must(t, err)
		copyOf := func(name string, edit func(b []byte) []byte) string {
			p := filepath.Join(dir, name)
			onRoot(t, func() error { return os.WriteFile(p, edit(append([]byte(nil), raw...)), 0o644) })
			return p
		}
		sentinel := func(i int) float64 { return -float64(i) }
		h, err := ga.Create[float64]("h", dims, nil)
		must(t, err)
		defer mpitest.Cleanup(t, h.Destroy)
		fill(t, h, sentinel)

		// A missing file.
		_, err = dra.Open[float64](filepath.Join(dir, "missing.dra"), dra.ModeRead)
		wantErr(t, "missing file", err, nil, "missing.dra")
		_, err = dra.Open[float64](filepath.Join(dir, "missing.dra"), dra.ModeReadWrite)
		wantErr(t, "missing file, ModeReadWrite", err, nil, "missing.dra")
		absent(t, "missing file, ModeReadWrite", filepath.Join(dir, "missing.dra"))

		// Truncated: by one element, and inside the header.
		short := copyOf("short.dra", func(b []byte) []byte { return b[:len(b)-8] })
		_, err = dra.Open[float64](short, dra.ModeRead)
		wantErr(t, "truncated file", err, dra.ErrFormat, "truncated")
		stub := copyOf("stub.dra", func(b []byte) []byte { return b[:100] })
		_, err = dra.Open[float64](stub, dra.ModeRead)
		wantErr(t, "file cut inside its header", err, dra.ErrFormat, "truncated")

		// A flipped byte in the data: the read fails naming the tile's
		// section (element 9·17+3 is in rows 8 to 11 of tiles of 4 rows),
		// and h keeps its values.
		hdr := size - 19*17*8
		flipped := copyOf("flipped.dra", func(b []byte) []byte { b[hdr+(9*17+3)*8+2] ^= 0x10; return b })
		d, err = dra.Open[float64](flipped, dra.ModeRead)
		must(t, err)
		err = done(dra.Read(h, d))
		wantErr(t, "flipped byte", err, dra.ErrChecksum, "lo [8 0] hi [11 16]")
		wantWhole(t, "h after a checksum error", h, sentinel)
		// A section elsewhere reads fine; one that touches the tile fails.
		must(t, done(dra.ReadSection(false, h, []int{0, 0}, []int{3, 16}, d, []int{0, 0}, []int{3, 16})))
		err = done(dra.ReadSection(false, h, []int{5, 0}, []int{5, 16}, d, []int{11, 0}, []int{11, 16}))
		wantErr(t, "section through the flipped tile", err, dra.ErrChecksum, "lo [8 0] hi [11 16]")
		must(t, d.Close())
		fill(t, h, sentinel)

		// A flipped byte in the header.
		bent := copyOf("bent.dra", func(b []byte) []byte { b[45] ^= 1; return b })
		_, err = dra.Open[float64](bent, dra.ModeRead)
		wantErr(t, "flipped header byte", err, dra.ErrFormat, "header")
		// Not a disk array at all.
		junk := copyOf("junk.dra", func(b []byte) []byte { return []byte("hello, world: this is not a disk array, just text") })
		_, err = dra.Open[float64](junk, dra.ModeRead)
		wantErr(t, "foreign file", err, dra.ErrFormat, "not a goga disk array")

		// Not a regular file: a directory and a FIFO under a disk array's
		// name, in every mode, and as a .npy file. MPI-IO's open of a
		// directory succeeds and its read blocks some processes for ever.
		notFile := filepath.Join(dir, "dir.dra")
		fifo := filepath.Join(dir, "fifo.dra")
		onRoot(t, func() error { return errors.Join(os.Mkdir(notFile, 0o755), syscall.Mkfifo(fifo, 0o644)) })
		for _, name := range []string{notFile, fifo} {
			for _, mode := range []dra.Mode{dra.ModeRead, dra.ModeWrite, dra.ModeReadWrite} {
				_, err = dra.Open[float64](name, mode)
				wantErr(t, "not a regular file", err, dra.ErrFormat, filepath.Base(name), "not a regular file")
				if _, err := os.Stat(name + ".partial"); !os.IsNotExist(err) {
					t.Errorf("%s opened in %v: a partial file is left (%v)", name, mode, err)
				}
			}
			_, err = dra.LoadNpy[float64]("x", name)
			wantErr(t, "LoadNpy of not a regular file", err, dra.ErrFormat, "not a regular file")
		}

		// Another element type, another shape.
		_, err = dra.Open[float32](good, dra.ModeRead)
		wantErr(t, "float64 file opened as float32", err, dra.ErrMismatch, "float64", "float32")
		d, err = dra.Open[float64](good, dra.ModeRead)
		must(t, err)
		k, err := ga.Create[float64]("k", []int{17, 19}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, k.Destroy)
		_, err = dra.Read(k, d)
		wantErr(t, "read into another shape", err, dra.ErrMismatch, "[17 19]", "[19 17]")
		must(t, d.Close())

		// A directory that cannot be written: a read-only tmpfs as root,
		// else a directory without write permission.
		ro := mountTmpfs(t, dir, "ro", true)
		if ro == "" && os.Geteuid() != 0 {
			ro = filepath.Join(dir, "ro")
			onRoot(t, func() error { return os.Mkdir(ro, 0o555) })
		}
		if ro == "" {
			t.Log("unwritable-directory case skipped: root without the right to mount")
		} else {
			name := filepath.Join(ro, "new.dra")
			_, err = dra.Create[float64](dims, "new", name, dra.ModeWrite, nil)
			wantErr(t, "unwritable directory", err, nil, "new.dra")
			absent(t, "unwritable directory", name)
		}

		// A full disk: a 64 KiB tmpfs that holds an older, small array
		// under the name; writing a 256 KiB one there fails on every
		// process and leaves the older one whole.
		full := mountTmpfs(t, dir, "full", false)
		if full == "" {
			t.Log("disk-full case skipped: mounting a tmpfs needs root")
			return
		}
		name := filepath.Join(full, "a.dra")
		small, err := ga.Create[float64]("small", []int{8, 8}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, small.Destroy)
		fill(t, small, val[float64])
		d, err = dra.Create[float64]([]int{8, 8}, "old", name, dra.ModeWrite, nil)
		must(t, err)
		must(t, done(dra.Write(small, d)))
		must(t, d.Close())
		big, err := ga.Create[float64]("big", []int{128, 256}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, big.Destroy)
		fill(t, big, val[float64])
		d, err = dra.Create[float64]([]int{128, 256}, "new", name, dra.ModeWrite, nil)
		if err == nil {
			err = done(dra.Write(big, d))
			wantErr(t, "disk full", err, nil)
			err = d.Close()
		}
		wantErr(t, "disk full", err, nil)
		if _, err := os.Stat(name + ".partial"); !os.IsNotExist(err) {
			t.Errorf("disk full: the partial file is left (%v)", err)
		}
		d, err = dra.Open[float64](name, dra.ModeRead)
		must(t, err)
		if _, _, n, _ := d.Inquire(); n != "old" {
			t.Errorf("after the failed write the file holds %q, want the old array", n)
		}
		fill(t, small, func(int) float64 { return 0 })
		must(t, done(dra.Read(small, d)))
		wantWhole(t, "old array after disk full", small, val[float64])
		must(t, d.Close())
	})
}

// TestReadWrite changes a file in place through ModeReadWrite: the change
// appears at Close; a Delete before Close leaves nothing.
func TestReadWrite(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t, dra.Limits{MaxArrays: 1})
		defer stop(t)
		file := filepath.Join(dir, "rw.dra")
		dims := []int{6, 9}
		g, err := ga.Create[int64]("g", dims, nil)
		must(t, err)
		defer mpitest.Cleanup(t, g.Destroy)
		fill(t, g, val[int64])
		d, err := dra.Create[int64](dims, "rw", file, dra.ModeWrite, []int{2, 3})
		must(t, err)
		if _, err := dra.Create[int64](dims, "second", file+"2", dra.ModeWrite, nil); !errors.Is(err, dra.ErrLimit) {
			t.Errorf("a second array with MaxArrays 1: %v, want ErrLimit", err)
		}
		must(t, done(dra.Write(g, d)))
		must(t, d.Close())

		d, err = dra.Open[int64](file, dra.ModeReadWrite)
		must(t, err)
		one, err := ga.Create[int64]("one", []int{1, 1}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, one.Destroy)
		must(t, one.Fill(-7))
		must(t, done(dra.WriteSection(false, one, []int{0, 0}, []int{0, 0}, d, []int{4, 4}, []int{4, 4})))
		// Not yet visible under the name.
		e, err := dra.Open[int64](file, dra.ModeRead)
		if err == nil {
			t.Errorf("opened a second array past MaxArrays")
			must(t, e.Close())
		}
		must(t, d.Close())
		d, err = dra.Open[int64](file, dra.ModeRead)
		must(t, err)
		must(t, done(dra.Read(g, d)))
		wantWhole(t, "after ModeReadWrite", g, func(i int) int64 {
			if i == 4*9+4 {
				return -7
			}
			return val[int64](i)
		})
		must(t, d.Close())
		d, err = dra.Open[int64](file, dra.ModeWrite)
		must(t, err)
		must(t, d.Delete())
		absent(t, "Delete", file)
		if err := d.Close(); !errors.Is(err, dra.ErrClosed) {
			t.Errorf("Close after Delete: %v, want ErrClosed", err)
		}
	})
}
