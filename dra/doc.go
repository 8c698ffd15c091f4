// Package dra is Disk Resident Arrays for goga: n-dimensional arrays that
// live in files and move to and from global arrays (package ga), whole or
// in sections, collectively, with the patch syntax of ga.CopyPatch, as
// GA's companion library DRA does (GA paper §5.7). It also reads and
// writes NumPy's .npy files, so that Python, Julia and other tools read
// goga's results and hand it theirs.
//
//	if err := dra.Init(dra.Limits{}); err != nil { ... } // after ga.Init
//	defer dra.Terminate()
//	d, err := dra.Create[float64]([]int{n, n}, "A", "a.dra", dra.ModeWrite, nil)
//	r, err := dra.Write(a, d) // a is a *ga.Array[float64] of n × n
//	err = r.Wait()
//	err = d.Close() // the file appears under its name, complete
//
//	d, err = dra.Open[float64]("a.dra", dra.ModeRead)
//	r, err = dra.ReadSection(true, b, blo, bhi, d, dlo, dhi) // transposed
//	err = r.Wait()
//
// Every call is collective over GA's default group, with the same
// arguments on every process, and every failure is an error on every
// process (the failing process's own, the others' wrapping ErrPeer with
// its message and sentinel): nothing aborts or hangs.
//
// # Transfers
//
// Write and Read move a whole global array of the disk array's dims;
// WriteSection and ReadSection move a patch [glo, ghi] of a global array
// to or from a section [dlo, dhi] of the disk array (0-based, inclusive,
// C order, as in package ga), the patch's shape equal to the section's
// (reversed when trans is set, which transposes, as CopyPatch's Trans does),
// dimensions of extent 1 aside. Each returns a Request, and Wait
// (collective) completes it; Probe answers whether its I/O is done. Until
// Wait, the global array a write reads must not change and the one a read
// fills must not be read. Starting a transfer first completes the one in
// flight on the same disk array.
//
// Every process does I/O, on its band of the file: process k of n moves
// rows [k·B/n, (k+1)·B/n) of the box (the whole array, or a section's
// tiles) along its first dimension, with all of the others. It gets its
// band from the global array by one-sided Get (from whichever processes
// own it; nothing goes through one process) into a buffer in file order.
// Where every band is whole rows of the file, each band is one run of the
// file, and each process moves its own with positioned reads and writes
// of its own descriptor of the file, in steps of 1 MiB: a write fetches a
// step, sums it, writes it and starts its writeback (sync_file_range), so
// that the device writes while the processor copies the next step and
// Close's fsync waits for less; a read reads and sums step by step (reads
// of 1 MiB took the kernel's readahead best here). That I/O runs in the
// background, in a goroutine of each process, from the transfer call to
// Wait: the program computes meanwhile, Probe answers whether this
// process's part is done, and Wait waits for it, agrees on every
// process's outcome, and does the rest. Elsewhere (a section whose rows
// are not whole) a band is a list of runs, moved through a file view of
// them by one collective call (MPI_File_write_at_all or read_at_all, which
// merges the rows) in the transfer call itself, as it is where MPI
// provides less than MPI_THREAD_MULTIPLE (the background Gets from the
// global array need it). A read is the reverse (then Put), and the band
// reaches the global array, in Wait, only when every checksum matches, so
// a failed read leaves the array unchanged. Until Wait, ga refuses to
// destroy the global arrays a transfer reads or fills, and to end, on
// every process. This is DRA's own scheme (the GA paper's Fig. 16: the
// section cut among I/O processes, the global array's data moved to their
// buffers). Each process writing the blocks it owns instead was measured
// at 0.4 of dd's speed: a 2048 × 2048 float64 array on 2 processes is cut
// in column blocks, and Open MPI 4.1.4 wrote each process's part as 2048
// pwrites of 8 KiB.
//
// The background I/O does not go through MPI-IO, whose non-blocking calls
// were measured unfit with Open MPI 4.1.4 (OMPIO) here: on a full tmpfs
// MPI_File_write_at_all prints "No space left on device" and returns
// MPI_SUCCESS, and MPI_File_iwrite_at_all crashes in MPI_Wait; and with
// the machine loaded MPI_File_iread_at_all and Wait took 33 to 490 ms for
// 32 MiB where MPI_File_read_at_all took 30 to 56 ms. Create reserves the
// file's whole size with fallocate (a full disk is an error there, on
// every process), and writes check the count they report. (package mpi
// binds the non-blocking calls, IwriteAtAll and IreadAtAll, all the same.)
//
// Sections move in whole tiles (below). A section goes through a scratch
// global array of the whole tiles that hold it: a read reads those tiles
// into it, checks them, and copies the section out with ga.CopyPatch; a
// write copies the patch in with CopyPatch and writes the tiles, having
// first read them if the section does not cover them whole (as DRA reads
// the partial blocks of an unaligned section). The scratch array lives on
// the default group, with the default distribution, until Wait.
//
// # Files
//
// A disk array is one file:
//
//	offset 0   "GOGADRA\x00"          magic
//	       8   version (1)            uint32, little-endian, as every field
//	      12   element type           1 int32, 2 int64, 3 float32, 4 float64,
//	                                  5 complex64, 6 complex128
//	      16   byte order of the data 1: little-endian
//	      20   ndim                   uint32
//	      24   data offset            uint64: the header's padded size
//	      32   number of tiles        uint64
//	      40   dims                   ndim × uint64
//	           tile shape             ndim × uint64
//	           name                   uint32 length, bytes
//	           checksums              one uint64 per tile, tiles in C order
//	           header CRC             CRC-64 (ECMA) of all the above
//	           padding                zeros to a multiple of 4096
//	data       the elements in C order, little-endian
//
// Tiles are blocks of the tile shape, cut from the array's origin (the
// last ones clipped): the request shape Create gets (DRA's reqdims) or,
// without one, rows of about 1 MiB; then doubled until there are at most
// 65536. Each tile's checksum is the sum, modulo 2^64, over its 4-byte
// words (elements of 4 bytes) or 8-byte words (larger ones) w at word
// position p of the data, of w·k(p), with the odd key k(p) =
// K[p mod 1024] + 2·mix(p div 1024), K a fixed table of odd numbers
// (mix(i + φ) | 1) and mix SplitMix64's finalizer (φ 0x9e3779b97f4a7c15).
// Changing any one word changes the sum (k(p) is odd, so invertible modulo
// 2^64); it guards against damage, not tampering. A sum is computed by
// each process over what it holds (one multiply-add per word, about 10
// GB/s here) and the parts are added in one Allreduce; a word of zeros
// adds 0, so a new file (all zeros) has all checksums 0. A read checks
// every tile it reads; a mismatch is ErrChecksum
// naming the tile's section. Open checks the magic, version, byte order,
// header CRC, the element type (ErrMismatch for another) and that the file
// is exactly as long as the header says (a truncated file is ErrFormat).
//
// A file is complete or absent. Create writes file + ".partial"; Open with
// ModeWrite or ModeReadWrite copies the file there first (each process a
// part), and ModeRead reads it in place. Close writes the header, syncs
// the data (MPI_File_sync), closes, and renames the partial file to the name
// (atomically; the directory is not synced, which would cost about a
// fifth of a 32 MiB write here, so after a crash the name holds the new
// file or the previous one, both complete). If a transfer on the array
// failed, Close removes the partial file instead and returns that failure;
// so does a failure of any of Close's steps. A crash leaves at most a
// stale ".partial" beside the previous file, which the next Create
// replaces.
//
// # .npy files
//
// SaveNpy writes a global array as a version 1.0 .npy file (C order,
// little-endian: '<i4', '<i8', '<f4', '<f8', '<c8', '<c16'), its header
// padded so the data starts at a multiple of 64 bytes; LoadNpy makes a
// global array from one (versions 1.0 to 3.0, those dtypes, C order; a
// Fortran-order file is refused with a hint). Both move the data as
// transfers do, each process its band in one collective call, and
// SaveNpy's file is complete or absent as a disk array's is. They live here
// rather than in ga because they share this package's MPI-IO plan,
// partial-file life and agreement on errors, and ga stays free of file
// formats.
//
// # DRA C names
//
//	DRA_Init                       Init(Limits{MaxArrays, MaxArraySize, TotalDiskSpace, MaxMemory})
//	DRA_Terminate                  Terminate (closes what is still open)
//	NDRA_Create, DRA_Create        Create[T](dims, name, file, mode, reqdims)
//	NDRA_Create_config             CreateConfig[T](dims, name, file, mode, reqdims, Config{Files, IOProcs}) (Files 1: one file per array)
//	DRA_Open                       Open[T](file, mode)
//	DRA_Close                      d.Close
//	DRA_Delete                     d.Delete
//	NDRA_Inquire, DRA_Inquire      d.Inquire (d.Dims; d.Tile for the layout)
//	NDRA_Write, DRA_Write          Write(g, d)
//	NDRA_Read, DRA_Read            Read(g, d)
//	NDRA_Write_section             WriteSection(trans, g, glo, ghi, d, dlo, dhi)
//	NDRA_Read_section              ReadSection(trans, g, glo, ghi, d, dlo, dhi)
//	DRA_Wait                       r.Wait
//	DRA_Probe                      r.Probe
//	DRA_R, DRA_W, DRA_RW           ModeRead, ModeWrite, ModeReadWrite
//	DRA_Set_default_config         SetDefaultConfig(Config{Files, IOProcs})
//	DRA_Set_debug                  SetDebug (and SetDebugOutput: where the trace goes)
//	DRA_Print_internals            d.PrintInternals (d.FprintInternals to a writer)
//	DRA_Flick                      Flick (yields to the transfers' goroutines)
//	(none)                         SaveNpy, LoadNpy
//
// # Performance
//
// cmd/gabench's dra figures: a 2048 × 2048 float64 array (32 MiB) on 2
// processes, written (Create, Write, Wait, Close with its syncs) and read
// (Open, Read, Wait, Close), against dd-style sequential I/O of as many
// bytes by one process (1 MiB writes then fsync; 1 MiB reads), all reads
// after posix_fadvise DONTNEED on the synced file, best of 3, MB/s = 10^6
// bytes per second; 3 runs on a quiet 2-core VM (ext4), the band's I/O in
// the background (a write's Wait follows it at once):
//
//	dra_write  dd_write  ratio      dra_read  dd_read  ratio
//	1576-1817  1807-2009 0.87-0.99  1168-1341 2043-2186 0.53-0.66
//
// Against the same code with the I/O in the transfer call, the goroutine
// costs 0.88 of the write's speed and 0.85 of the read's where the caller
// waits at once; where it computes meanwhile, it gains that time
// (gabench's dra_overlap).
//
// Designs measured the same way and not kept: each process writing the
// blocks it owns, 0.38 of dd's write and 0.51 of its read: the default
// distribution of 2048 × 2048 on 2 processes is column blocks, written as
// 2048 pwrites of 8 KiB per process (hence bands, contiguous in the
// file); checksums of 22 ms per 16 MiB (hence the multiply-add sum, 1-2
// ms); bands written whole, without the 1 MiB steps and their writeback,
// 0.30-0.67 of dd's write and 0.64-0.70 of its read. Under a load of 15 to
// 21 on the 2-core machine, a single-process dd is barely touched, while
// two MPI processes that poll for each other at every collective step
// lose whole scheduler slices (one write took 3 s where it takes 50 ms):
// figures taken under load say little.
//
// Where the time goes (one repetition, 2 ranks): a write is the band's
// fetch and sums and its write to the page cache, 8-9 ms together, then
// fsync and close 6-7 ms (15 ms without the writeback started by steps; dd's whole
// write with fsync takes 21 ms); a read is Open 0.6 ms, the reads and
// sums 19-22 ms (two 16 MiB streams from the device take 19 ms in a plain
// Go program, one 32 MiB stream 18 ms), then Wait 3-5 ms, almost all of it
// the Put of the band into the global array (1.3 ms for the same Put in a
// loop, 3-4 ms here after the file I/O). Tried and not kept: readahead of
// the whole band (posix_fadvise WILLNEED: 1-3 ms slower), a goroutine
// summing each step while the next is read (no difference beyond noise), a
// checksum loop of four chains (slower than the two of sumWords), and
// holding the replaced file open across the rename to free its blocks in
// the background (the rename over a 32 MiB file takes 6-8 ms, freeing its
// cached pages; in the background that cost moved to the next Open).
package dra
