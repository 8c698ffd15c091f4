// shim.h: the C side of goga's HDF5 binding. Each function is one cgo
// crossing that makes the several HDF5 calls of one step (open a dataset and
// read its type and shape; select a hyperslab and transfer it collectively),
// closes what it opened, and on failure returns -1 with the failing call and
// HDF5's error stack, one line, in msg.
#ifndef GOGA_H5_SHIM_H
#define GOGA_H5_SHIM_H

#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GOGA_H5_MSG = 512, GOGA_H5_MAXDIM = 32 };

// Element types, as package h5 numbers them: 0 is any other.
enum { GOGA_H5_INT32 = 1, GOGA_H5_INT64, GOGA_H5_FLOAT32, GOGA_H5_FLOAT64, GOGA_H5_COMPLEX64, GOGA_H5_COMPLEX128 };

// Attribute kinds beside the element types.
enum { GOGA_H5_STRING = 100 };

typedef struct {
	char *buf;
	size_t n, len;
} goga_h5_walk_buf;

static herr_t goga_h5_walk(unsigned n, const H5E_error2_t *e, void *data) {
	goga_h5_walk_buf *w = (goga_h5_walk_buf *)data;
	(void)n;
	if (w->len + 2 >= w->n || e->desc == NULL || e->desc[0] == 0) return 0;
	int k = snprintf(w->buf + w->len, w->n - w->len, "%s%s", w->len ? ": " : "", e->desc);
	if (k > 0) w->len += (size_t)k < w->n - w->len ? (size_t)k : w->n - w->len - 1;
	return 0;
}

// goga_h5_fail writes "call: " and the descriptions of HDF5's error stack,
// outermost first, into msg, and clears the stack.
static inline void goga_h5_fail(char *msg, const char *call) {
	goga_h5_walk_buf w = {msg, GOGA_H5_MSG, 0};
	int k = snprintf(msg, GOGA_H5_MSG, "%s", call);
	w.len = k > 0 && k < GOGA_H5_MSG ? (size_t)k : 0;
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, goga_h5_walk, &w);
	H5Eclear2(H5E_DEFAULT);
}

#define GOGA_TRY(x, call)                  \
	do {                                   \
		if ((x) < 0) {                     \
			goga_h5_fail(msg, call);       \
			goto out;                      \
		}                                  \
	} while (0)

static hid_t goga_h5_c64 = -1, goga_h5_c128 = -1, goga_h5_f64 = -1, goga_h5_f128 = -1;

// goga_h5_complex makes the compound type {r, i} of two floats of size
// half, as h5py writes complex numbers; le: little-endian IEEE (the file's
// type), else native (memory's).
static hid_t goga_h5_complex(size_t half, int le) {
	hid_t f = half == 4 ? (le ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT) : (le ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE);
	hid_t t = H5Tcreate(H5T_COMPOUND, 2 * half);
	if (t < 0) return t;
	if (H5Tinsert(t, "r", 0, f) < 0 || H5Tinsert(t, "i", half, f) < 0) {
		H5Tclose(t);
		return -1;
	}
	return t;
}

// goga_h5_init silences HDF5's printing of errors (the library is built
// without thread safety, so the setting is the process's) and makes the
// complex types.
static inline int goga_h5_init(char *msg) {
	GOGA_TRY(H5open(), "H5open");
	GOGA_TRY(H5Eset_auto2(H5E_DEFAULT, NULL, NULL), "H5Eset_auto2");
	GOGA_TRY(goga_h5_c64 = goga_h5_complex(4, 0), "H5Tcreate");
	GOGA_TRY(goga_h5_c128 = goga_h5_complex(8, 0), "H5Tcreate");
	GOGA_TRY(goga_h5_f64 = goga_h5_complex(4, 1), "H5Tcreate");
	GOGA_TRY(goga_h5_f128 = goga_h5_complex(8, 1), "H5Tcreate");
	return 0;
out:
	return -1;
}

// goga_h5_type is the memory type (file 0) or the file's type (file 1) of an
// element type.
static hid_t goga_h5_type(int code, int file) {
	switch (code) {
	case GOGA_H5_INT32: return file ? H5T_STD_I32LE : H5T_NATIVE_INT32;
	case GOGA_H5_INT64: return file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
	case GOGA_H5_FLOAT32: return file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT;
	case GOGA_H5_FLOAT64: return file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
	case GOGA_H5_COMPLEX64: return file ? goga_h5_f64 : goga_h5_c64;
	case GOGA_H5_COMPLEX128: return file ? goga_h5_f128 : goga_h5_c128;
	}
	return -1;
}

// goga_h5_classify names the element type of t (0 for another) and
// describes t in desc.
static int goga_h5_classify(hid_t t, char *desc) {
	H5T_class_t c = H5Tget_class(t);
	size_t size = H5Tget_size(t);
	switch (c) {
	case H5T_INTEGER: {
		int sign = H5Tget_sign(t) == H5T_SGN_2;
		snprintf(desc, 64, "%sint%zu", sign ? "" : "u", 8 * size);
		if (sign && size == 4) return GOGA_H5_INT32;
		if (sign && size == 8) return GOGA_H5_INT64;
		return 0;
	}
	case H5T_FLOAT:
		snprintf(desc, 64, "float%zu", 8 * size);
		return size == 4 ? GOGA_H5_FLOAT32 : size == 8 ? GOGA_H5_FLOAT64 : 0;
	case H5T_STRING:
		snprintf(desc, 64, "string");
		return H5Tis_variable_str(t) > 0 ? GOGA_H5_STRING : GOGA_H5_STRING + 1;
	case H5T_COMPOUND: {
		int n = H5Tget_nmembers(t), ok = n == 2;
		snprintf(desc, 64, "compound of %d members, %zu bytes", n, size);
		for (int k = 0; ok && k < 2; k++) {
			char *name = H5Tget_member_name(t, (unsigned)k);
			hid_t m = H5Tget_member_type(t, (unsigned)k);
			ok = name != NULL && strcmp(name, k ? "i" : "r") == 0 && m >= 0 && H5Tget_class(m) == H5T_FLOAT &&
			     H5Tget_size(m) == size / 2 && H5Tget_member_offset(t, (unsigned)k) == k * size / 2;
			if (m >= 0) H5Tclose(m);
			if (name) H5free_memory(name);
		}
		if (!ok) return 0;
		snprintf(desc, 64, "complex%zu", 8 * size);
		return size == 8 ? GOGA_H5_COMPLEX64 : size == 16 ? GOGA_H5_COMPLEX128 : 0;
	}
	default:
		snprintf(desc, 64, "type class %d of %zu bytes", (int)c, size);
	}
	return 0;
}

// goga_h5_file_open creates (create != 0, truncating) or opens (rw: for
// writing) name with the MPI-IO driver on comm, metadata read and written
// collectively.
static inline hid_t goga_h5_file_open(const char *name, uintptr_t comm, int create, int rw, char *msg) {
	hid_t fapl = -1, f = -1;
	GOGA_TRY(fapl = H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate");
	GOGA_TRY(H5Pset_fapl_mpio(fapl, (MPI_Comm)comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
	GOGA_TRY(H5Pset_all_coll_metadata_ops(fapl, 1), "H5Pset_all_coll_metadata_ops");
	GOGA_TRY(H5Pset_coll_metadata_write(fapl, 1), "H5Pset_coll_metadata_write");
	if (create) {
		GOGA_TRY(f = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "H5Fcreate");
	} else {
		GOGA_TRY(f = H5Fopen(name, rw ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl), "H5Fopen");
	}
out:
	if (fapl >= 0) H5Pclose(fapl);
	return f;
}

// goga_h5_file_check opens name alone, with the default (POSIX) driver, and
// closes it: HDF5 checks the superblock and that the file is as long as it
// says. Returns 0, or -1 with msg; 1 where the file is not HDF5.
static inline int goga_h5_file_check(const char *name, char *msg) {
	htri_t is = H5Fis_hdf5(name);
	hid_t f = -1;
	GOGA_TRY(is, "H5Fis_hdf5");
	if (!is) return 1;
	GOGA_TRY(f = H5Fopen(name, H5F_ACC_RDONLY, H5P_DEFAULT), "H5Fopen");
	GOGA_TRY(H5Fclose(f), "H5Fclose");
	return 0;
out:
	return -1;
}

static inline int goga_h5_file_close(hid_t f, char *msg) {
	GOGA_TRY(H5Fclose(f), "H5Fclose");
	return 0;
out:
	return -1;
}

// goga_h5_size is how long the file is or will be: the larger of its end
// of file and its end of allocated space (H5Fget_eoa refuses the MPI-IO
// driver).
static inline long long goga_h5_size(hid_t f, char *msg) {
	hsize_t n = 0;
	GOGA_TRY(H5Fget_filesize(f, &n), "H5Fget_filesize");
	return (long long)n;
out:
	return -1;
}

// goga_h5_exists says whether path names an object in f: 1 a dataset, 2
// a group, 3 another kind, 0 nothing (also where a folder on the way is
// missing or not a group).
static inline int goga_h5_exists(hid_t f, const char *path, char *msg) {
	char p[4096];
	size_t n = strlen(path);
	if (n == 0 || n >= sizeof p) return 0;
	memcpy(p, path, n + 1);
	for (size_t k = 1; k <= n; k++) {
		if (p[k] != '/' && p[k] != 0) continue;
		char c = p[k];
		p[k] = 0;
		htri_t e = H5Lexists(f, p, H5P_DEFAULT);
		GOGA_TRY(e, "H5Lexists");
		if (!e) return 0;
		H5O_info_t info;
		GOGA_TRY(H5Oget_info_by_name2(f, p, &info, H5O_INFO_BASIC, H5P_DEFAULT), "H5Oget_info_by_name");
		if (c == '/' && info.type != H5O_TYPE_GROUP) return 0;
		if (c == 0) return info.type == H5O_TYPE_DATASET ? 1 : info.type == H5O_TYPE_GROUP ? 2 : 3;
		p[k] = c;
	}
	return 0;
out:
	return -1;
}

// goga_h5_group_create makes the group path and the groups on its way.
static inline int goga_h5_group_create(hid_t f, const char *path, char *msg) {
	hid_t lcpl = -1, g = -1;
	int rc = -1;
	GOGA_TRY(lcpl = H5Pcreate(H5P_LINK_CREATE), "H5Pcreate");
	GOGA_TRY(H5Pset_create_intermediate_group(lcpl, 1), "H5Pset_create_intermediate_group");
	GOGA_TRY(g = H5Gcreate2(f, path, lcpl, H5P_DEFAULT, H5P_DEFAULT), "H5Gcreate2");
	rc = 0;
out:
	if (g >= 0) H5Gclose(g);
	if (lcpl >= 0) H5Pclose(lcpl);
	return rc;
}

// goga_h5_dataset_create makes the dataset path of the element type code
// and ndim dims, with the groups on its way; chunked by chunk where
// chunk[0] > 0, else contiguous; zero written into it where zero != 0.
// Returns the open dataset.
static inline hid_t goga_h5_dataset_create(hid_t f, const char *path, int code, int ndim, const long long *dims,
                                           const long long *chunk, int zero, char *msg) {
	hsize_t d[GOGA_H5_MAXDIM], c[GOGA_H5_MAXDIM];
	hid_t lcpl = -1, dcpl = -1, space = -1, ds = -1;
	for (int k = 0; k < ndim; k++) d[k] = (hsize_t)dims[k], c[k] = (hsize_t)chunk[k];
	GOGA_TRY(lcpl = H5Pcreate(H5P_LINK_CREATE), "H5Pcreate");
	GOGA_TRY(H5Pset_create_intermediate_group(lcpl, 1), "H5Pset_create_intermediate_group");
	GOGA_TRY(dcpl = H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate");
	if (ndim > 0 && chunk[0] > 0) GOGA_TRY(H5Pset_chunk(dcpl, ndim, c), "H5Pset_chunk");
	// Parallel HDF5 allocates the whole dataset at creation, and fills it
	// then or never: never where every element is about to be written;
	// else with zeros (the default fill value), as space never written
	// does not read as zeros under every MPI: under MPICH the elements
	// that partial H5Dwrite calls into a new dataset left out read as 0xff
	// bytes.
	GOGA_TRY(H5Pset_fill_time(dcpl, zero ? H5D_FILL_TIME_ALLOC : H5D_FILL_TIME_NEVER), "H5Pset_fill_time");
	GOGA_TRY(space = H5Screate_simple(ndim, d, NULL), "H5Screate_simple");
	GOGA_TRY(ds = H5Dcreate2(f, path, goga_h5_type(code, 1), space, lcpl, dcpl, H5P_DEFAULT), "H5Dcreate2");
out:
	if (space >= 0) H5Sclose(space);
	if (dcpl >= 0) H5Pclose(dcpl);
	if (lcpl >= 0) H5Pclose(lcpl);
	return ds;
}

// goga_h5_dataset_open opens the dataset path and tells its element type
// (*code, desc), dims (*ndim of them, at most GOGA_H5_MAXDIM) and chunk
// shape (zeros when contiguous).
static inline hid_t goga_h5_dataset_open(hid_t f, const char *path, int *code, char *desc, int *ndim, long long *dims,
                                         long long *chunk, char *msg) {
	hsize_t d[GOGA_H5_MAXDIM], c[GOGA_H5_MAXDIM];
	hid_t ds = -1, t = -1, space = -1, dcpl = -1;
	GOGA_TRY(ds = H5Dopen2(f, path, H5P_DEFAULT), "H5Dopen2");
	GOGA_TRY(t = H5Dget_type(ds), "H5Dget_type");
	*code = goga_h5_classify(t, desc);
	GOGA_TRY(space = H5Dget_space(ds), "H5Dget_space");
	GOGA_TRY(*ndim = H5Sget_simple_extent_ndims(space), "H5Sget_simple_extent_ndims");
	if (*ndim > GOGA_H5_MAXDIM) {
		snprintf(msg, GOGA_H5_MSG, "H5Sget_simple_extent_ndims: %d dimensions", *ndim);
		goto fail;
	}
	GOGA_TRY(H5Sget_simple_extent_dims(space, d, NULL), "H5Sget_simple_extent_dims");
	GOGA_TRY(dcpl = H5Dget_create_plist(ds), "H5Dget_create_plist");
	int chunked = H5Pget_layout(dcpl) == H5D_CHUNKED;
	if (chunked) GOGA_TRY(H5Pget_chunk(dcpl, *ndim, c), "H5Pget_chunk");
	for (int k = 0; k < *ndim; k++) dims[k] = (long long)d[k], chunk[k] = chunked ? (long long)c[k] : 0;
	H5Pclose(dcpl);
	H5Sclose(space);
	H5Tclose(t);
	return ds;
out:
fail:
	if (dcpl >= 0) H5Pclose(dcpl);
	if (space >= 0) H5Sclose(space);
	if (t >= 0) H5Tclose(t);
	if (ds >= 0) H5Dclose(ds);
	return -1;
}

static inline int goga_h5_dataset_close(hid_t ds, char *msg) {
	GOGA_TRY(H5Dclose(ds), "H5Dclose");
	return 0;
out:
	return -1;
}

// goga_h5_dataset_offset is the byte offset in the file of the dataset's
// elements where they lie there as one run in memory's layout of the
// element type code, for the caller to write with its own positioned
// writes: a contiguous dataset, allocated, in the file itself (not an
// external file), of code's little-endian type on a little-endian host.
// Else -2, or -1 with msg where a call failed.
static inline long long goga_h5_dataset_offset(hid_t ds, int code, char *msg) {
	hid_t t = -1, dcpl = -1;
	long long off = -2;
	GOGA_TRY(t = H5Dget_type(ds), "H5Dget_type");
	htri_t same = H5Tequal(t, goga_h5_type(code, 1));
	GOGA_TRY(same, "H5Tequal");
	htri_t native = H5Tequal(goga_h5_type(code, 1), goga_h5_type(code, 0));
	GOGA_TRY(native, "H5Tequal");
	GOGA_TRY(dcpl = H5Dget_create_plist(ds), "H5Dget_create_plist");
	int ext = H5Pget_external_count(dcpl);
	GOGA_TRY(ext, "H5Pget_external_count");
	if (same && native && ext == 0 && H5Pget_layout(dcpl) == H5D_CONTIGUOUS) {
		haddr_t a = H5Dget_offset(ds);
		if (a != HADDR_UNDEF) off = (long long)a;
		H5Eclear2(H5E_DEFAULT);
	}
	H5Pclose(dcpl);
	H5Tclose(t);
	return off;
out:
	if (dcpl >= 0) H5Pclose(dcpl);
	if (t >= 0) H5Tclose(t);
	return -1;
}

// goga_h5_dataset_io writes (write != 0) or reads the box of count elements
// at start of the dataset from or to buf (C order, packed), collectively
// (H5FD_MPIO_COLLECTIVE): every process of the file calls it, those with
// nothing to move with a count of zeros.
static inline int goga_h5_dataset_io(hid_t ds, int write, int code, int ndim, const long long *start,
                                     const long long *count, void *buf, char *msg) {
	hsize_t s[GOGA_H5_MAXDIM], n[GOGA_H5_MAXDIM], one = 1;
	hid_t fs = -1, ms = -1, xfer = -1;
	int rc = -1, empty = 0;
	static char dummy[16];
	for (int k = 0; k < ndim; k++) {
		s[k] = (hsize_t)start[k], n[k] = (hsize_t)count[k];
		empty |= n[k] == 0;
	}
	GOGA_TRY(fs = H5Dget_space(ds), "H5Dget_space");
	if (empty) {
		GOGA_TRY(H5Sselect_none(fs), "H5Sselect_none");
		GOGA_TRY(ms = H5Screate_simple(1, &one, NULL), "H5Screate_simple");
		GOGA_TRY(H5Sselect_none(ms), "H5Sselect_none");
		buf = dummy;
	} else {
		GOGA_TRY(H5Sselect_hyperslab(fs, H5S_SELECT_SET, s, NULL, n, NULL), "H5Sselect_hyperslab");
		GOGA_TRY(ms = H5Screate_simple(ndim, n, NULL), "H5Screate_simple");
	}
	GOGA_TRY(xfer = H5Pcreate(H5P_DATASET_XFER), "H5Pcreate");
	GOGA_TRY(H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
	if (write) {
		GOGA_TRY(H5Dwrite(ds, goga_h5_type(code, 0), ms, fs, xfer, buf), "H5Dwrite");
	} else {
		GOGA_TRY(H5Dread(ds, goga_h5_type(code, 0), ms, fs, xfer, buf), "H5Dread");
	}
	rc = 0;
out:
	if (xfer >= 0) H5Pclose(xfer);
	if (ms >= 0) H5Sclose(ms);
	if (fs >= 0) H5Sclose(fs);
	return rc;
}

// goga_h5_attr_write sets the attribute name of the object path, replacing
// one of that name: a variable-length UTF-8 string of n bytes (code
// GOGA_H5_STRING, as h5py writes str), else n elements of type code, a
// scalar where n < 0.
static inline int goga_h5_attr_write(hid_t f, const char *path, const char *name, int code, long long n,
                                     const void *buf, char *msg) {
	hid_t obj = -1, space = -1, ftype = -1, mtype = -1, a = -1;
	int rc = -1;
	char *s = NULL;
	GOGA_TRY(obj = H5Oopen(f, path, H5P_DEFAULT), "H5Oopen");
	htri_t e = H5Aexists(obj, name);
	GOGA_TRY(e, "H5Aexists");
	if (e) GOGA_TRY(H5Adelete(obj, name), "H5Adelete");
	if (code == GOGA_H5_STRING) {
		GOGA_TRY(ftype = H5Tcopy(H5T_C_S1), "H5Tcopy");
		GOGA_TRY(H5Tset_size(ftype, H5T_VARIABLE), "H5Tset_size");
		GOGA_TRY(H5Tset_cset(ftype, H5T_CSET_UTF8), "H5Tset_cset");
		mtype = H5Tcopy(ftype);
		GOGA_TRY(space = H5Screate(H5S_SCALAR), "H5Screate");
		s = malloc((size_t)n + 1);
		memcpy(s, buf, (size_t)n);
		s[n] = 0;
		buf = &s;
	} else if (n < 0) {
		GOGA_TRY(space = H5Screate(H5S_SCALAR), "H5Screate");
	} else {
		hsize_t d = (hsize_t)n;
		GOGA_TRY(space = H5Screate_simple(1, &d, NULL), "H5Screate_simple");
	}
	GOGA_TRY(a = H5Acreate2(obj, name, ftype >= 0 ? ftype : goga_h5_type(code, 1), space, H5P_DEFAULT, H5P_DEFAULT),
	         "H5Acreate2");
	GOGA_TRY(H5Awrite(a, mtype >= 0 ? mtype : goga_h5_type(code, 0), buf), "H5Awrite");
	rc = 0;
out:
	free(s);
	if (a >= 0) H5Aclose(a);
	if (mtype >= 0) H5Tclose(mtype);
	if (ftype >= 0) H5Tclose(ftype);
	if (space >= 0) H5Sclose(space);
	if (obj >= 0) H5Oclose(obj);
	return rc;
}

// goga_h5_attr_read reads the attribute name of the object path: its kind
// (*code: an element type, GOGA_H5_STRING for a string of any kind, 0 for
// another, described in desc), its elements (*n, -1 for a scalar) and a
// malloc'd copy of its value in *out (a string's bytes, *n of them), which
// the caller frees. *found is 0 where the object has no such attribute.
static inline int goga_h5_attr_read(hid_t f, const char *path, const char *name, int *found, int *code, char *desc,
                                    long long *n, void **out, char *msg) {
	hid_t obj = -1, a = -1, t = -1, space = -1, mtype = -1;
	int rc = -1;
	*out = NULL;
	*found = 0;
	GOGA_TRY(obj = H5Oopen(f, path, H5P_DEFAULT), "H5Oopen");
	htri_t e = H5Aexists(obj, name);
	GOGA_TRY(e, "H5Aexists");
	if (!e) {
		rc = 0;
		goto out;
	}
	*found = 1;
	GOGA_TRY(a = H5Aopen(obj, name, H5P_DEFAULT), "H5Aopen");
	GOGA_TRY(t = H5Aget_type(a), "H5Aget_type");
	GOGA_TRY(space = H5Aget_space(a), "H5Aget_space");
	hssize_t count = H5Sget_simple_extent_npoints(space);
	GOGA_TRY(count, "H5Sget_simple_extent_npoints");
	int scalar = H5Sget_simple_extent_type(space) == H5S_SCALAR;
	*n = scalar ? -1 : (long long)count;
	*code = goga_h5_classify(t, desc);
	if (*code == GOGA_H5_STRING || *code == GOGA_H5_STRING + 1) {
		if (count != 1) {
			snprintf(desc, 64, "%lld strings", (long long)count);
			*code = 0;
			rc = 0;
			goto out;
		}
		if (*code == GOGA_H5_STRING) {
			char *s = NULL;
			GOGA_TRY(mtype = H5Tcopy(t), "H5Tcopy");
			GOGA_TRY(H5Aread(a, mtype, &s), "H5Aread");
			*n = s ? (long long)strlen(s) : 0;
			*out = malloc((size_t)*n + 1);
			if (s) memcpy(*out, s, (size_t)*n);
			H5free_memory(s);
		} else {
			size_t size = H5Tget_size(t);
			*out = calloc(1, size + 1);
			GOGA_TRY(H5Aread(a, t, *out), "H5Aread");
			*n = (long long)strnlen((char *)*out, size);
		}
		*code = GOGA_H5_STRING;
	} else if (*code != 0) {
		*out = malloc((size_t)count * H5Tget_size(goga_h5_type(*code, 0)) + 1);
		GOGA_TRY(H5Aread(a, goga_h5_type(*code, 0), *out), "H5Aread");
	}
	rc = 0;
out:
	if (rc < 0) {
		free(*out);
		*out = NULL;
	}
	if (mtype >= 0) H5Tclose(mtype);
	if (space >= 0) H5Sclose(space);
	if (t >= 0) H5Tclose(t);
	if (a >= 0) H5Aclose(a);
	if (obj >= 0) H5Oclose(obj);
	return rc;
}

#endif
