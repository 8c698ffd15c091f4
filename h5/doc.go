// Package h5 writes global arrays (package ga) to HDF5 files and reads
// them back, collectively, through parallel HDF5: the format that h5py,
// xarray, NetCDF-4, ParaView, VisIt, MATLAB and Julia read, where
// dra's files are goga's own and .npy holds one array a file.
//
//	f, err := h5.Create("run.h5") // after ga.Init
//	err = h5.Write(f, "run1/fields/u", u, &h5.Options{Chunk: []int{256, 256}})
//	err = f.SetAttr("run1/fields/u", "units", "m/s")
//	err = f.Close() // run.h5 appears, complete
//
//	f, err = h5.Open("run.h5", h5.ModeRead)
//	v, err := h5.Load[float64](f, "run1/fields/u", "v") // a new global array
//	err = h5.ReadSection(false, g, glo, ghi, f, "run1/fields/u", dlo, dhi)
//
// and in Python:
//
//	u = h5py.File("run.h5")["run1/fields/u"][()]
//
// # Semantics
//
// A File is opened by every process of GA's default group, through HDF5's
// MPI-IO driver (H5Pset_fapl_mpio) on the group's communicator, with
// metadata read and written collectively. Every call on it is collective
// over that group, with the same arguments on every process (the
// arguments are hashed and compared: a difference is ErrArgs on every
// process), and the global arrays it moves live on that group.
//
// Datasets hold the six element types of ga: int32 and int64 (HDF5's
// little-endian integers), float32 and float64 (IEEE), complex64 and
// complex128 as h5py stores them, a compound of two floats named "r" and
// "i". Any number of dimensions (1 to 32), stored contiguous or in chunks
// (Options.Chunk). Paths are folders: Write and CreateDataset make the
// groups on a dataset's way ("run1/fields/u"), CreateGroup makes one
// alone. A read accepts a dataset of T's kind in either byte order
// (HDF5 converts), and refuses any other type (ErrMismatch): no silent
// conversion of float64 to float32, or of unsigned integers.
//
// Write makes a dataset of a global array's type and dims and fills it,
// and sets its attributes "name" (the array's name) and "distribution"
// (how many blocks goga cut it into along each dimension: ProcGrid).
// Read fills a global array of the dataset's type and dims; Load makes one
// (default distribution) and fills it. CreateDataset makes a dataset of
// zeros that WriteSection fills a hyperslab at a time: WriteSection and
// ReadSection move a patch [glo, ghi] of a global array to or from a
// hyperslab [dlo, dhi] (0-based, inclusive, C order, as dra's sections),
// the shapes equal, extents of 1 aside, transposed when trans is set.
// SetAttr and Attr write and read attributes of a dataset, a group or the
// file ("/"): strings (variable-length UTF-8, as h5py writes str; any
// string kind is read), numbers of the element types or int, and
// one-dimensional slices of them.
//
// Each process moves a band of the box (the whole dataset, or the
// hyperslab): process k of n the rows [k·B/n, (k+1)·B/n) of its B along
// the first dimension. Bands rather than each process's own blocks, for
// dra's reason: the default distribution of 2048 × 2048 on 2 processes is
// column blocks, thousands of small runs in the file each.
//
// A write whose box spans whole rows of a contiguous dataset (Write's
// always do), stored in the file as memory holds it (little-endian types on
// a little-endian host, not in an external file), bypasses HDF5 for the
// data, as dra writes: each band is then one run of the file, at the
// offset HDF5 allocated the dataset at (parallel HDF5 allocates at
// creation; H5Dget_offset), and each process gets its band from the
// global array in steps of about 1 MiB (ga.Get, from whichever processes
// own it; after a Sync, so that earlier Puts are in), writes each step
// with a positioned write of its own descriptor of the file and starts its
// writeback (sync_file_range), so that the device works while the next
// step is got and Close's fsync finds little left; HDF5 writes the
// metadata. The kernel's page cache makes the process's descriptor and
// the MPI-IO driver's one file, as in dra. Other writes (chunked
// datasets, boxes of part of the rows, big-endian datasets that h5py
// made) get the band whole and write it by collective H5Dwrite calls
// (H5FD_MPIO_COLLECTIVE) of about 1 MiB of whole rows each, as many on
// every process, a process whose rows have run out selecting none (one
// call of a whole 16 MiB band was a single pwrite under Open MPI's OMPIO
// that took 36 ms); process 0 then starts the writeback of the file. A
// read reads its band by such H5Dread calls and puts it into the global
// array only when every process has read its own, so that a failed read
// leaves the array unchanged. Sections of another shape than their patch
// (transposed, or extents of 1 moved) go through a scratch global array
// of the hyperslab's shape and ga.CopyPatch.
//
// # Files
//
// A file is complete or absent. Create writes name + ".partial" (and
// Open with ModeReadWrite copies the file there first, from process 0);
// Close closes it, syncs it, has HDF5 open it alone and close it again (a
// check of its superblock and length), and renames it to its name. If a
// call that changed the file failed, Close removes the partial file
// instead and returns that failure; so does a failure of any of Close's
// steps. ModeRead reads the file in place.
//
// A full disk is an error where the space is taken: each new dataset's
// bytes (and 64 KiB for its metadata) are reserved with fallocate on the
// partial file, beyond the bound of what HDF5 has placed so far, and
// the reserve past the file's end is freed at Close. Writes through
// MPI-IO alone would not tell: Open MPI 4.1.4's OMPIO prints "No space left
// on device" and returns success (see dra).
//
// # Errors
//
// Nothing aborts and HDF5 prints nothing: its automatic error printing is
// off (H5Eset_auto2), and a failed HDF5 call is an *Error that names the
// call (the Go function), the file, the dataset or group, the HDF5
// function that failed, and HDF5's error stack from the outermost
// description in, wrapping ErrHDF5. Every failure is an error on every
// process, by goga's agreement protocol (internal/agreement, as dra and ga
// agree): the failing process gets its own error, the others an *Error
// wrapping ErrPeer and the failing process's sentinel, with its message.
// The sentinels: ErrNotFound (a missing file, dataset, group or
// attribute), ErrExists, ErrMismatch (a dataset of another type or shape,
// a patch or hyperslab out of bounds or of another shape), ErrFormat (not
// an HDF5 file), ErrClosed, ErrReadOnly, ErrArgs.
//
// # Threads
//
// HDF5 (Debian's libhdf5-openmpi 1.10.8) is built without thread safety:
// the package makes one HDF5 call at a time in a process (a lock), and
// since the calls are collective, a program makes them from one goroutine
// at a time, in the same order on every process, as for any collective.
//
// # Linking
//
// HDF5 is bound by cgo/hdf5, a package of its own, so that only programs
// that import h5 link libhdf5 (and the tens of libraries it loads).
// scripts/install-deps.sh installs libhdf5-openmpi-dev, and python3-h5py
// for the tests, which check what h5py reads of goga's files and what goga
// reads of h5py's; with --mpich, libhdf5-mpich-dev, the HDF5 that the
// build tag mpich links, and make test runs the tests there too.
//
// # Performance
//
// cmd/gabench's h5_write_MBps and h5_read_MBps: a 2048 × 2048 float64
// array (32 MiB) on 2 processes, Create, Write and Close (with its fsync,
// check and rename) and Open, Read and Close, as dra_write_MBps and
// dra_read_MBps time a disk array in the same run. On a 2-core machine
// under a load of 10 to 15, 9 figures of each (these metrics alone,
// alternating with the same array written through H5Dwrite, as a chunked
// dataset or a part of the rows is written): the write ran at 0.68 to 1.27
// of dra's speed, median 1.15 (through H5Dwrite 0.36 to 0.61, median
// 0.50), the read at 0.67 to 1.30 of dra's. Where a write's time went:
// Create under 1 ms, Write 6-9 ms (through H5Dwrite 12-22 ms), Close 7-28
// ms, of which the fsync most and the rename over the previous file about
// 5 ms (dra's Close renames too); HDF5's close and its check of the closed
// file under 1 ms each.
package h5
