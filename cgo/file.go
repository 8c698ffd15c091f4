package cgo

/*
#include "shim.h"

#define G_FILE(h) ((MPI_File)(h))

// ---- MPI-IO: files, views, collective and independent transfers ----

static inline int goga_file_open(goga_h c, const char *name, int amode, goga_h info, goga_h *out) {
	MPI_File f = MPI_FILE_NULL;
	int rc = MPI_File_open(G_COMM(c), name, amode, G_INFO(info), &f);
	*out = (goga_h)f;
	// Files are born with MPI_ERRORS_RETURN by the standard; say it anyway, so
	// that a program that changed MPI_FILE_NULL's handler cannot make I/O
	// errors abort.
	if (rc == MPI_SUCCESS) MPI_File_set_errhandler(f, MPI_ERRORS_RETURN);
	return rc;
}
static inline int goga_file_close(goga_h *f) {
	MPI_File h = G_FILE(*f);
	int rc = MPI_File_close(&h);
	*f = (goga_h)h;
	return rc;
}
static inline int goga_file_delete(const char *name, goga_h info) {
	return MPI_File_delete(name, G_INFO(info));
}
static inline int goga_file_set_view(goga_h f, long long disp, goga_h etype, goga_h ftype, goga_h info) {
	return MPI_File_set_view(G_FILE(f), (MPI_Offset)disp, G_TYPE(etype), G_TYPE(ftype), "native", G_INFO(info));
}
// goga_file_io is one blocking transfer: kind picks MPI_File_write_at_all,
// read_at_all, write_at or read_at (GOGA_FILE_* below).
enum { GOGA_FILE_WRITE_AT_ALL, GOGA_FILE_READ_AT_ALL, GOGA_FILE_WRITE_AT, GOGA_FILE_READ_AT };
static inline int goga_file_io(int kind, goga_h f, long long off, void *buf, int count, goga_h t, goga_status *st) {
	MPI_Status s;
	MPI_File h = G_FILE(f);
	MPI_Offset o = (MPI_Offset)off;
	int rc;
	switch (kind) {
	case GOGA_FILE_WRITE_AT_ALL: rc = MPI_File_write_at_all(h, o, buf, count, G_TYPE(t), &s); break;
	case GOGA_FILE_READ_AT_ALL: rc = MPI_File_read_at_all(h, o, buf, count, G_TYPE(t), &s); break;
	case GOGA_FILE_WRITE_AT: rc = MPI_File_write_at(h, o, buf, count, G_TYPE(t), &s); break;
	default: rc = MPI_File_read_at(h, o, buf, count, G_TYPE(t), &s);
	}
	if (rc == MPI_SUCCESS) goga_fill_status(&s, st);
	return rc;
}
// goga_file_istart starts MPI_File_iwrite_at_all (write != 0) or
// MPI_File_iread_at_all.
static inline int goga_file_istart(int write, goga_h f, long long off, void *buf, int count, goga_h t, goga_h *req) {
	MPI_Request r;
	int rc = write ? MPI_File_iwrite_at_all(G_FILE(f), (MPI_Offset)off, buf, count, G_TYPE(t), &r)
	               : MPI_File_iread_at_all(G_FILE(f), (MPI_Offset)off, buf, count, G_TYPE(t), &r);
	*req = (goga_h)r;
	return rc;
}
static inline int goga_file_sync(goga_h f) { return MPI_File_sync(G_FILE(f)); }
static inline int goga_file_set_size(goga_h f, long long n) { return MPI_File_set_size(G_FILE(f), (MPI_Offset)n); }
static inline int goga_file_get_size(goga_h f, long long *n) {
	MPI_Offset s = 0;
	int rc = MPI_File_get_size(G_FILE(f), &s);
	*n = (long long)s;
	return rc;
}

// ---- info objects ----

static inline int goga_info_create(goga_h *out) {
	MPI_Info i;
	int rc = MPI_Info_create(&i);
	*out = (goga_h)i;
	return rc;
}
static inline int goga_info_set(goga_h i, const char *k, const char *v) { return MPI_Info_set(G_INFO(i), k, v); }
static inline int goga_info_free(goga_h i) {
	MPI_Info h = G_INFO(i);
	return MPI_Info_free(&h);
}
static inline goga_h goga_file_null(void) { return (goga_h)MPI_FILE_NULL; }
static inline goga_h goga_info_null(void) { return (goga_h)MPI_INFO_NULL; }
*/
import "C"

import "unsafe"

// File and Info handle types (MPI_File, MPI_Info).
type (
	File uintptr
	Info uintptr
)

// Access modes of MPI_File_open.
const (
	ModeRdonly         = C.MPI_MODE_RDONLY
	ModeWronly         = C.MPI_MODE_WRONLY
	ModeRdwr           = C.MPI_MODE_RDWR
	ModeCreate         = C.MPI_MODE_CREATE
	ModeExcl           = C.MPI_MODE_EXCL
	ModeDeleteOnClose  = C.MPI_MODE_DELETE_ON_CLOSE
	ModeUniqueOpen     = C.MPI_MODE_UNIQUE_OPEN
	ModeSequential     = C.MPI_MODE_SEQUENTIAL
	ModeAppend         = C.MPI_MODE_APPEND
	ErrNoSuchFile      = C.MPI_ERR_NO_SUCH_FILE
	ErrNoSpace         = C.MPI_ERR_NO_SPACE
	ErrAccess          = C.MPI_ERR_ACCESS
	ErrFileExists      = C.MPI_ERR_FILE_EXISTS
	ErrQuota           = C.MPI_ERR_QUOTA
	ErrReadOnly        = C.MPI_ERR_READ_ONLY
	ErrIO              = C.MPI_ERR_IO
	ErrFile            = C.MPI_ERR_FILE
	ErrBadFile         = C.MPI_ERR_BAD_FILE
	ErrAmode           = C.MPI_ERR_AMODE
	ErrUnsupportedOper = C.MPI_ERR_UNSUPPORTED_OPERATION
)

// Predefined file and info handles.
var (
	FileNull = File(C.goga_file_null())
	InfoNull = Info(C.goga_info_null())
)

// FileOpen is MPI_File_open; the file returns errors.
func FileOpen(c Comm, name string, amode int, info Info) (File, int) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.goga_h
	rc := C.goga_file_open(h(uintptr(c)), cs, ci(amode), h(uintptr(info)), &f)
	return File(f), int(rc)
}

// FileClose is MPI_File_close; it sets *f to FileNull.
func FileClose(f *File) int {
	ch := C.goga_h(*f)
	rc := C.goga_file_close(&ch)
	*f = File(ch)
	return int(rc)
}

// FileDelete is MPI_File_delete.
func FileDelete(name string, info Info) int {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return int(C.goga_file_delete(cs, h(uintptr(info))))
}

// FileSetView is MPI_File_set_view with the "native" representation.
func FileSetView(f File, disp int, etype, ftype Datatype, info Info) int {
	return int(C.goga_file_set_view(h(uintptr(f)), C.longlong(disp), h(uintptr(etype)), h(uintptr(ftype)), h(uintptr(info))))
}

// FileXfer selects a blocking transfer of FileIO.
type FileXfer int

// Blocking transfers.
const (
	FileWriteAtAll FileXfer = C.GOGA_FILE_WRITE_AT_ALL // MPI_File_write_at_all
	FileReadAtAll  FileXfer = C.GOGA_FILE_READ_AT_ALL  // MPI_File_read_at_all
	FileWriteAt    FileXfer = C.GOGA_FILE_WRITE_AT     // MPI_File_write_at
	FileReadAt     FileXfer = C.GOGA_FILE_READ_AT      // MPI_File_read_at
)

// FileIO runs the blocking transfer x of count elements of t at buf, at
// offset off (in etypes of the view).
func FileIO(x FileXfer, f File, off int, buf unsafe.Pointer, count int, t Datatype, st *Status) int {
	var cs C.goga_status
	rc := int(C.goga_file_io(C.int(x), h(uintptr(f)), C.longlong(off), buf, ci(count), h(uintptr(t)), &cs))
	st.set(&cs)
	return rc
}

// FileIstart is MPI_File_iwrite_at_all (write) or MPI_File_iread_at_all
// (MPI 3.1). The caller pins buf until the request completes.
func FileIstart(write bool, f File, off int, buf unsafe.Pointer, count int, t Datatype) (Request, int) {
	var r C.goga_h
	w := 0
	if write {
		w = 1
	}
	rc := C.goga_file_istart(ci(w), h(uintptr(f)), C.longlong(off), buf, ci(count), h(uintptr(t)), &r)
	return Request(r), int(rc)
}

// FileSync is MPI_File_sync.
func FileSync(f File) int { return int(C.goga_file_sync(h(uintptr(f)))) }

// FileSetSize is MPI_File_set_size.
func FileSetSize(f File, n int) int { return int(C.goga_file_set_size(h(uintptr(f)), C.longlong(n))) }

// FileGetSize is MPI_File_get_size.
func FileGetSize(f File) (int, int) {
	var n C.longlong
	rc := C.goga_file_get_size(h(uintptr(f)), &n)
	return int(n), int(rc)
}

// InfoCreate is MPI_Info_create.
func InfoCreate() (Info, int) {
	var i C.goga_h
	rc := C.goga_info_create(&i)
	return Info(i), int(rc)
}

// InfoSet is MPI_Info_set.
func InfoSet(i Info, key, value string) int {
	k, v := C.CString(key), C.CString(value)
	defer C.free(unsafe.Pointer(k))
	defer C.free(unsafe.Pointer(v))
	return int(C.goga_info_set(h(uintptr(i)), k, v))
}

// InfoFree is MPI_Info_free.
func InfoFree(i Info) int { return int(C.goga_info_free(h(uintptr(i)))) }
