// shim.h: the C side of goga's MPI bindings.
//
// Every MPI handle crosses into Go as a uintptr_t. The casts below are valid for
// Open MPI (handles are pointers) and MPICH (handles are ints) alike, so one shim
// serves both. Each function is one cgo crossing; functions that need several MPI
// calls (a status read, a request array) do them here so Go pays for one crossing.
#ifndef GOGA_SHIM_H
#define GOGA_SHIM_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uintptr_t goga_h;

#define G_COMM(h) ((MPI_Comm)(h))
#define G_GROUP(h) ((MPI_Group)(h))
#define G_TYPE(h) ((MPI_Datatype)(h))
#define G_OP(h) ((MPI_Op)(h))
#define G_WIN(h) ((MPI_Win)(h))
#define G_REQ(h) ((MPI_Request)(h))
#define G_INFO(h) ((MPI_Info)(h))

// goga_status is MPI_Status reduced to what Go reads, with the byte count taken
// while the status is still at hand.
typedef struct {
	int source, tag, error, cancelled;
	long long bytes;
} goga_status;

static inline void goga_fill_status(MPI_Status *st, goga_status *out) {
	int n = 0;
	if (out == NULL) return;
	out->source = st->MPI_SOURCE;
	out->tag = st->MPI_TAG;
	out->error = st->MPI_ERROR;
	out->cancelled = 0;
	MPI_Get_count(st, MPI_BYTE, &n);
	out->bytes = n == MPI_UNDEFINED ? -1 : n;
}

// goga_fill_done is goga_fill_status for a completed request's status, the
// only kind MPI_Test_cancelled reads (MPICH leaves the bit undefined in a
// probe's).
static inline void goga_fill_done(MPI_Status *st, goga_status *out) {
	if (out == NULL) return;
	goga_fill_status(st, out);
	MPI_Test_cancelled(st, &out->cancelled);
}

// Predefined handles, looked up once at package init.
enum {
	GOGA_COMM_WORLD, GOGA_COMM_SELF, GOGA_COMM_NULL, GOGA_GROUP_EMPTY, GOGA_GROUP_NULL,
	GOGA_REQUEST_NULL, GOGA_WIN_NULL, GOGA_DATATYPE_NULL, GOGA_OP_NULL, GOGA_INFO_NULL,
	GOGA_INT8, GOGA_INT16, GOGA_INT32, GOGA_INT64, GOGA_UINT8, GOGA_UINT16, GOGA_UINT32,
	GOGA_UINT64, GOGA_FLOAT, GOGA_DOUBLE, GOGA_C_FLOAT_COMPLEX, GOGA_C_DOUBLE_COMPLEX,
	GOGA_BYTE, GOGA_2INT, GOGA_FLOAT_INT, GOGA_DOUBLE_INT, GOGA_LONG_INT,
	GOGA_SUM, GOGA_PROD, GOGA_MIN, GOGA_MAX, GOGA_LAND, GOGA_LOR, GOGA_LXOR, GOGA_BAND,
	GOGA_BOR, GOGA_BXOR, GOGA_MINLOC, GOGA_MAXLOC, GOGA_REPLACE, GOGA_NO_OP,
	GOGA_NHANDLES
};

static inline void goga_handles(goga_h *h) {
	h[GOGA_COMM_WORLD] = (goga_h)MPI_COMM_WORLD;
	h[GOGA_COMM_SELF] = (goga_h)MPI_COMM_SELF;
	h[GOGA_COMM_NULL] = (goga_h)MPI_COMM_NULL;
	h[GOGA_GROUP_EMPTY] = (goga_h)MPI_GROUP_EMPTY;
	h[GOGA_GROUP_NULL] = (goga_h)MPI_GROUP_NULL;
	h[GOGA_REQUEST_NULL] = (goga_h)MPI_REQUEST_NULL;
	h[GOGA_WIN_NULL] = (goga_h)MPI_WIN_NULL;
	h[GOGA_DATATYPE_NULL] = (goga_h)MPI_DATATYPE_NULL;
	h[GOGA_OP_NULL] = (goga_h)MPI_OP_NULL;
	h[GOGA_INFO_NULL] = (goga_h)MPI_INFO_NULL;
	h[GOGA_INT8] = (goga_h)MPI_INT8_T;
	h[GOGA_INT16] = (goga_h)MPI_INT16_T;
	h[GOGA_INT32] = (goga_h)MPI_INT32_T;
	h[GOGA_INT64] = (goga_h)MPI_INT64_T;
	h[GOGA_UINT8] = (goga_h)MPI_UINT8_T;
	h[GOGA_UINT16] = (goga_h)MPI_UINT16_T;
	h[GOGA_UINT32] = (goga_h)MPI_UINT32_T;
	h[GOGA_UINT64] = (goga_h)MPI_UINT64_T;
	h[GOGA_FLOAT] = (goga_h)MPI_FLOAT;
	h[GOGA_DOUBLE] = (goga_h)MPI_DOUBLE;
	h[GOGA_C_FLOAT_COMPLEX] = (goga_h)MPI_C_FLOAT_COMPLEX;
	h[GOGA_C_DOUBLE_COMPLEX] = (goga_h)MPI_C_DOUBLE_COMPLEX;
	h[GOGA_BYTE] = (goga_h)MPI_BYTE;
	h[GOGA_2INT] = (goga_h)MPI_2INT;
	h[GOGA_FLOAT_INT] = (goga_h)MPI_FLOAT_INT;
	h[GOGA_DOUBLE_INT] = (goga_h)MPI_DOUBLE_INT;
	h[GOGA_LONG_INT] = (goga_h)MPI_LONG_INT;
	h[GOGA_SUM] = (goga_h)MPI_SUM;
	h[GOGA_PROD] = (goga_h)MPI_PROD;
	h[GOGA_MIN] = (goga_h)MPI_MIN;
	h[GOGA_MAX] = (goga_h)MPI_MAX;
	h[GOGA_LAND] = (goga_h)MPI_LAND;
	h[GOGA_LOR] = (goga_h)MPI_LOR;
	h[GOGA_LXOR] = (goga_h)MPI_LXOR;
	h[GOGA_BAND] = (goga_h)MPI_BAND;
	h[GOGA_BOR] = (goga_h)MPI_BOR;
	h[GOGA_BXOR] = (goga_h)MPI_BXOR;
	h[GOGA_MINLOC] = (goga_h)MPI_MINLOC;
	h[GOGA_MAXLOC] = (goga_h)MPI_MAXLOC;
	h[GOGA_REPLACE] = (goga_h)MPI_REPLACE;
	h[GOGA_NO_OP] = (goga_h)MPI_NO_OP;
}

// ---- environment ----

static inline int goga_init_thread(int required, int *provided) {
	return MPI_Init_thread(NULL, NULL, required, provided);
}
static inline int goga_error_string(int code, char *buf, int *len) {
	return MPI_Error_string(code, buf, len);
}
static inline int goga_error_class(int code, int *cls) { return MPI_Error_class(code, cls); }
// goga_abort flushes C's stdio first: MPI_Abort ends the process without
// exit's flush, and a line C code left buffered would be lost.
static inline int goga_abort(goga_h c, int code) {
	fflush(NULL);
	return MPI_Abort(G_COMM(c), code);
}
static inline int goga_comm_errors_return(goga_h c) {
	return MPI_Comm_set_errhandler(G_COMM(c), MPI_ERRORS_RETURN);
}

// ---- communicators and groups ----

static inline int goga_comm_rank_size(goga_h c, int *rank, int *size) {
	int rc = MPI_Comm_rank(G_COMM(c), rank);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Comm_size(G_COMM(c), size);
}
static inline int goga_comm_dup(goga_h c, goga_h *out) {
	MPI_Comm n;
	int rc = MPI_Comm_dup(G_COMM(c), &n);
	*out = (goga_h)n;
	return rc;
}
static inline int goga_comm_split(goga_h c, int color, int key, goga_h *out) {
	MPI_Comm n;
	int rc = MPI_Comm_split(G_COMM(c), color, key, &n);
	*out = (goga_h)n;
	return rc;
}
static inline int goga_comm_split_type(goga_h c, int type, int key, goga_h *out) {
	MPI_Comm n;
	int rc = MPI_Comm_split_type(G_COMM(c), type, key, MPI_INFO_NULL, &n);
	*out = (goga_h)n;
	return rc;
}
static inline int goga_comm_create(goga_h c, goga_h g, goga_h *out) {
	MPI_Comm n;
	int rc = MPI_Comm_create(G_COMM(c), G_GROUP(g), &n);
	*out = (goga_h)n;
	return rc;
}
static inline int goga_comm_free(goga_h c) {
	MPI_Comm n = G_COMM(c);
	return MPI_Comm_free(&n);
}
static inline int goga_comm_compare(goga_h a, goga_h b, int *result) {
	return MPI_Comm_compare(G_COMM(a), G_COMM(b), result);
}
static inline int goga_comm_group(goga_h c, goga_h *out) {
	MPI_Group g;
	int rc = MPI_Comm_group(G_COMM(c), &g);
	*out = (goga_h)g;
	return rc;
}
static inline int goga_comm_c2f(goga_h c) { return (int)MPI_Comm_c2f(G_COMM(c)); }
static inline goga_h goga_comm_f2c(int f) { return (goga_h)MPI_Comm_f2c((MPI_Fint)f); }

static inline int goga_group_rank_size(goga_h g, int *rank, int *size) {
	int rc = MPI_Group_rank(G_GROUP(g), rank);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Group_size(G_GROUP(g), size);
}
static inline int goga_group_incl(goga_h g, int n, int *ranks, goga_h *out) {
	MPI_Group ng;
	int rc = MPI_Group_incl(G_GROUP(g), n, ranks, &ng);
	*out = (goga_h)ng;
	return rc;
}
static inline int goga_group_excl(goga_h g, int n, int *ranks, goga_h *out) {
	MPI_Group ng;
	int rc = MPI_Group_excl(G_GROUP(g), n, ranks, &ng);
	*out = (goga_h)ng;
	return rc;
}
static inline int goga_group_union(goga_h a, goga_h b, goga_h *out) {
	MPI_Group ng;
	int rc = MPI_Group_union(G_GROUP(a), G_GROUP(b), &ng);
	*out = (goga_h)ng;
	return rc;
}
static inline int goga_group_intersection(goga_h a, goga_h b, goga_h *out) {
	MPI_Group ng;
	int rc = MPI_Group_intersection(G_GROUP(a), G_GROUP(b), &ng);
	*out = (goga_h)ng;
	return rc;
}
static inline int goga_group_translate(goga_h a, int n, int *ra, goga_h b, int *rb) {
	return MPI_Group_translate_ranks(G_GROUP(a), n, ra, G_GROUP(b), rb);
}
static inline int goga_group_free(goga_h g) {
	MPI_Group n = G_GROUP(g);
	return MPI_Group_free(&n);
}

// ---- point to point ----

static inline int goga_send(void *buf, int count, goga_h t, int dest, int tag, goga_h c) {
	return MPI_Send(buf, count, G_TYPE(t), dest, tag, G_COMM(c));
}
static inline int goga_ssend(void *buf, int count, goga_h t, int dest, int tag, goga_h c) {
	return MPI_Ssend(buf, count, G_TYPE(t), dest, tag, G_COMM(c));
}
static inline int goga_recv(void *buf, int count, goga_h t, int src, int tag, goga_h c, goga_status *st) {
	MPI_Status s;
	int rc = MPI_Recv(buf, count, G_TYPE(t), src, tag, G_COMM(c), &s);
	if (rc == MPI_SUCCESS) goga_fill_status(&s, st);
	return rc;
}
static inline int goga_sendrecv(void *sbuf, int scount, goga_h st_, int dest, int stag,
		void *rbuf, int rcount, goga_h rt, int src, int rtag, goga_h c, goga_status *st) {
	MPI_Status s;
	int rc = MPI_Sendrecv(sbuf, scount, G_TYPE(st_), dest, stag, rbuf, rcount, G_TYPE(rt), src, rtag, G_COMM(c), &s);
	if (rc == MPI_SUCCESS) goga_fill_status(&s, st);
	return rc;
}
static inline int goga_isend(void *buf, int count, goga_h t, int dest, int tag, goga_h c, goga_h *req) {
	MPI_Request r;
	int rc = MPI_Isend(buf, count, G_TYPE(t), dest, tag, G_COMM(c), &r);
	*req = (goga_h)r;
	return rc;
}
static inline int goga_irecv(void *buf, int count, goga_h t, int src, int tag, goga_h c, goga_h *req) {
	MPI_Request r;
	int rc = MPI_Irecv(buf, count, G_TYPE(t), src, tag, G_COMM(c), &r);
	*req = (goga_h)r;
	return rc;
}
static inline int goga_probe(int src, int tag, goga_h c, goga_status *st) {
	MPI_Status s;
	int rc = MPI_Probe(src, tag, G_COMM(c), &s);
	if (rc == MPI_SUCCESS) goga_fill_status(&s, st);
	return rc;
}
// goga_polled is what a poll (MPI_Iprobe, MPI_Test) found, returned by value:
// out parameters in Go memory would each cost the caller an allocation, and
// the active-message server polls thousands of times a second.
typedef struct {
	int rc, flag;
	goga_h req;
	goga_status st;
} goga_polled;
static inline goga_polled goga_iprobe(int src, int tag, goga_h c) {
	MPI_Status s;
	goga_polled p = {0};
	p.rc = MPI_Iprobe(src, tag, G_COMM(c), &p.flag, &s);
	if (p.rc == MPI_SUCCESS && p.flag) goga_fill_status(&s, &p.st);
	return p;
}
static inline int goga_wait(goga_h *req, goga_status *st) {
	MPI_Request r = G_REQ(*req);
	MPI_Status s;
	int rc = MPI_Wait(&r, &s);
	*req = (goga_h)r;
	if (rc == MPI_SUCCESS) goga_fill_done(&s, st);
	return rc;
}
static inline goga_polled goga_test(goga_h req) {
	MPI_Request r = G_REQ(req);
	MPI_Status s;
	goga_polled p = {0};
	p.rc = MPI_Test(&r, &p.flag, &s);
	p.req = (goga_h)r;
	if (p.rc == MPI_SUCCESS && p.flag) goga_fill_done(&s, &p.st);
	return p;
}
// goga_exchanged is where an exchange stands, returned by value.
typedef struct {
	goga_h req;     // the receive, while pending
	int done;       // the receive completed
	int count;      // the bytes it received, once done
	int rc;         // MPI's return code
} goga_exchanged;
// goga_exchange_wait tests the receive req up to spins times and stops
// early, not done, when a message of tag ptag waits on pc: one crossing
// for what took a crossing per test, and no request object on the Go side.
static inline goga_exchanged goga_exchange_wait(goga_h req, goga_h pc, int ptag, int spins) {
	MPI_Request r = G_REQ(req);
	MPI_Status s;
	goga_exchanged x = {0, 0, 0, MPI_SUCCESS};
	int waiting = 0;
	for (int i = 0; i < spins; i++) {
		if ((x.rc = MPI_Test(&r, &x.done, &s)) != MPI_SUCCESS) break;
		if (x.done) {
			x.rc = MPI_Get_count(&s, MPI_BYTE, &x.count);
			break;
		}
		x.rc = MPI_Iprobe(MPI_ANY_SOURCE, ptag, G_COMM(pc), &waiting, MPI_STATUS_IGNORE);
		if (x.rc != MPI_SUCCESS || waiting) break;
	}
	x.req = (goga_h)r;
	return x;
}
// goga_exchange posts a receive of up to rn bytes into rbuf from peer (none
// if rn < 0), sends sn bytes of sbuf to it (none if sn < 0), both with tag
// on c, and then waits as goga_exchange_wait does.
static inline goga_exchanged goga_exchange(void *sbuf, int sn, void *rbuf, int rn, int peer, int tag,
		goga_h c, goga_h pc, int ptag, int spins) {
	MPI_Request r = MPI_REQUEST_NULL;
	goga_exchanged x = {(goga_h)MPI_REQUEST_NULL, 1, 0, MPI_SUCCESS};
	if (rn >= 0 && (x.rc = MPI_Irecv(rbuf, rn, MPI_BYTE, peer, tag, G_COMM(c), &r)) != MPI_SUCCESS) return x;
	x.req = (goga_h)r;
	if (sn >= 0 && (x.rc = MPI_Send(sbuf, sn, MPI_BYTE, peer, tag, G_COMM(c))) != MPI_SUCCESS) return x;
	if (rn < 0) return x;
	return goga_exchange_wait(x.req, pc, ptag, spins);
}
static inline int goga_cancel(goga_h req) {
	MPI_Request r = G_REQ(req);
	return MPI_Cancel(&r);
}
// goga_waitall and goga_waitany copy the handles because MPI_Request need not be
// the size of a uintptr_t (MPICH's is an int).
static inline int goga_waitall(int n, goga_h *reqs, goga_status *st) {
	MPI_Request *r = malloc(sizeof(MPI_Request) * (n > 0 ? n : 1));
	MPI_Status *s = malloc(sizeof(MPI_Status) * (n > 0 ? n : 1));
	int i, rc;
	for (i = 0; i < n; i++) r[i] = G_REQ(reqs[i]);
	rc = MPI_Waitall(n, r, s);
	for (i = 0; i < n; i++) {
		reqs[i] = (goga_h)r[i];
		if (rc == MPI_SUCCESS) goga_fill_done(&s[i], &st[i]);
		else st[i].error = s[i].MPI_ERROR;
	}
	free(r);
	free(s);
	return rc;
}
static inline int goga_waitany(int n, goga_h *reqs, int *index, goga_status *st) {
	MPI_Request *r = malloc(sizeof(MPI_Request) * (n > 0 ? n : 1));
	MPI_Status s;
	int i, rc;
	for (i = 0; i < n; i++) r[i] = G_REQ(reqs[i]);
	rc = MPI_Waitany(n, r, index, &s);
	for (i = 0; i < n; i++) reqs[i] = (goga_h)r[i];
	if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) goga_fill_done(&s, st);
	free(r);
	return rc;
}

// Matched probe: the message handle crosses as a goga_h like the others.
static inline int goga_mprobe(int src, int tag, goga_h c, goga_h *msg, goga_status *st) {
	MPI_Message m;
	MPI_Status s;
	int rc = MPI_Mprobe(src, tag, G_COMM(c), &m, &s);
	*msg = (goga_h)m;
	if (rc == MPI_SUCCESS) goga_fill_status(&s, st);
	return rc;
}
static inline int goga_improbe(int src, int tag, goga_h c, int *flag, goga_h *msg, goga_status *st) {
	MPI_Message m;
	MPI_Status s;
	int rc = MPI_Improbe(src, tag, G_COMM(c), flag, &m, &s);
	*msg = (goga_h)m;
	if (rc == MPI_SUCCESS && *flag) goga_fill_status(&s, st);
	return rc;
}
static inline int goga_mrecv(void *buf, int count, goga_h t, goga_h *msg, goga_status *st) {
	MPI_Message m = (MPI_Message)(*msg);
	MPI_Status s;
	int rc = MPI_Mrecv(buf, count, G_TYPE(t), &m, &s);
	*msg = (goga_h)m;
	if (rc == MPI_SUCCESS) goga_fill_status(&s, st);
	return rc;
}

// ---- collectives ----
// A NULL send buffer means MPI_IN_PLACE.
#define G_SB(p) ((p) == NULL ? MPI_IN_PLACE : (p))

static inline int goga_barrier(goga_h c) { return MPI_Barrier(G_COMM(c)); }
static inline int goga_bcast(void *buf, int count, goga_h t, int root, goga_h c) {
	return MPI_Bcast(buf, count, G_TYPE(t), root, G_COMM(c));
}
static inline int goga_reduce(void *s, void *r, int count, goga_h t, goga_h op, int root, goga_h c) {
	return MPI_Reduce(G_SB(s), r, count, G_TYPE(t), G_OP(op), root, G_COMM(c));
}
static inline int goga_allreduce(void *s, void *r, int count, goga_h t, goga_h op, goga_h c) {
	return MPI_Allreduce(G_SB(s), r, count, G_TYPE(t), G_OP(op), G_COMM(c));
}
// goga_reduce_cb and goga_allreduce_cb are goga_reduce and goga_allreduce
// for user-defined operators, which call back into Go: Go declares the
// others noescape and nocallback, which a callback would break.
static inline int goga_reduce_cb(void *s, void *r, int count, goga_h t, goga_h op, int root, goga_h c) {
	return MPI_Reduce(G_SB(s), r, count, G_TYPE(t), G_OP(op), root, G_COMM(c));
}
static inline int goga_allreduce_cb(void *s, void *r, int count, goga_h t, goga_h op, goga_h c) {
	return MPI_Allreduce(G_SB(s), r, count, G_TYPE(t), G_OP(op), G_COMM(c));
}

// ---- user-defined operators ----
// MPI_User_function carries no user data, so each operator slot has its own
// C function, which tells Go (gogaUserOp, cgo/userop.go) its slot.
#define GOGA_USER_OPS 16
extern void gogaUserOp(int slot, void *in, void *inout, int len);
#define GOGA_USER_OP(k) \
	static inline void goga_user_op_##k(void *in, void *inout, int *len, MPI_Datatype *dt) { \
		(void)dt; \
		gogaUserOp(k, in, inout, *len); \
	}
GOGA_USER_OP(0) GOGA_USER_OP(1) GOGA_USER_OP(2) GOGA_USER_OP(3)
GOGA_USER_OP(4) GOGA_USER_OP(5) GOGA_USER_OP(6) GOGA_USER_OP(7)
GOGA_USER_OP(8) GOGA_USER_OP(9) GOGA_USER_OP(10) GOGA_USER_OP(11)
GOGA_USER_OP(12) GOGA_USER_OP(13) GOGA_USER_OP(14) GOGA_USER_OP(15)
static inline int goga_op_create(int slot, int commute, goga_h *op) {
	static MPI_User_function *const fns[GOGA_USER_OPS] = {
		goga_user_op_0, goga_user_op_1, goga_user_op_2, goga_user_op_3,
		goga_user_op_4, goga_user_op_5, goga_user_op_6, goga_user_op_7,
		goga_user_op_8, goga_user_op_9, goga_user_op_10, goga_user_op_11,
		goga_user_op_12, goga_user_op_13, goga_user_op_14, goga_user_op_15,
	};
	MPI_Op o;
	int rc = MPI_Op_create(fns[slot], commute, &o);
	*op = (goga_h)o;
	return rc;
}
static inline int goga_op_free(goga_h op) {
	MPI_Op o = G_OP(op);
	return MPI_Op_free(&o);
}
static inline int goga_ibarrier(goga_h c, goga_h *req) {
	MPI_Request r;
	int rc = MPI_Ibarrier(G_COMM(c), &r);
	*req = (goga_h)r;
	return rc;
}
static inline int goga_iallreduce(void *s, void *r, int count, goga_h t, goga_h op, goga_h c, goga_h *req) {
	MPI_Request q;
	int rc = MPI_Iallreduce(G_SB(s), r, count, G_TYPE(t), G_OP(op), G_COMM(c), &q);
	*req = (goga_h)q;
	return rc;
}
static inline int goga_scan(void *s, void *r, int count, goga_h t, goga_h op, goga_h c) {
	return MPI_Scan(G_SB(s), r, count, G_TYPE(t), G_OP(op), G_COMM(c));
}
static inline int goga_exscan(void *s, void *r, int count, goga_h t, goga_h op, goga_h c) {
	return MPI_Exscan(G_SB(s), r, count, G_TYPE(t), G_OP(op), G_COMM(c));
}
static inline int goga_reduce_scatter(void *s, void *r, int *counts, goga_h t, goga_h op, goga_h c) {
	return MPI_Reduce_scatter(G_SB(s), r, counts, G_TYPE(t), G_OP(op), G_COMM(c));
}
static inline int goga_gather(void *s, int sc, void *r, int rc_, goga_h t, int root, goga_h c) {
	return MPI_Gather(G_SB(s), sc, G_TYPE(t), r, rc_, G_TYPE(t), root, G_COMM(c));
}
static inline int goga_gatherv(void *s, int sc, void *r, int *rcs, int *displs, goga_h t, int root, goga_h c) {
	return MPI_Gatherv(G_SB(s), sc, G_TYPE(t), r, rcs, displs, G_TYPE(t), root, G_COMM(c));
}
static inline int goga_allgather(void *s, int sc, void *r, int rc_, goga_h t, goga_h c) {
	return MPI_Allgather(G_SB(s), sc, G_TYPE(t), r, rc_, G_TYPE(t), G_COMM(c));
}
static inline int goga_allgatherv(void *s, int sc, void *r, int *rcs, int *displs, goga_h t, goga_h c) {
	return MPI_Allgatherv(G_SB(s), sc, G_TYPE(t), r, rcs, displs, G_TYPE(t), G_COMM(c));
}
static inline int goga_scatter(void *s, int sc, void *r, int rc_, goga_h t, int root, goga_h c) {
	return MPI_Scatter(s, sc, G_TYPE(t), r == NULL ? MPI_IN_PLACE : r, rc_, G_TYPE(t), root, G_COMM(c));
}
static inline int goga_scatterv(void *s, int *scs, int *displs, void *r, int rc_, goga_h t, int root, goga_h c) {
	return MPI_Scatterv(s, scs, displs, G_TYPE(t), r == NULL ? MPI_IN_PLACE : r, rc_, G_TYPE(t), root, G_COMM(c));
}
static inline int goga_alltoall(void *s, int sc, void *r, int rc_, goga_h t, goga_h c) {
	return MPI_Alltoall(G_SB(s), sc, G_TYPE(t), r, rc_, G_TYPE(t), G_COMM(c));
}
static inline int goga_alltoallv(void *s, int *scs, int *sd, void *r, int *rcs, int *rd, goga_h t, goga_h c) {
	return MPI_Alltoallv(G_SB(s), scs, sd, G_TYPE(t), r, rcs, rd, G_TYPE(t), G_COMM(c));
}

// ---- derived datatypes ----

static inline int goga_type_commit_out(MPI_Datatype t, int rc, goga_h *out) {
	if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&t);
	*out = (goga_h)t;
	return rc;
}
static inline int goga_type_vector(int count, int blocklen, int stride, goga_h old, goga_h *out) {
	MPI_Datatype t = MPI_DATATYPE_NULL;
	int rc = MPI_Type_vector(count, blocklen, stride, G_TYPE(old), &t);
	return goga_type_commit_out(t, rc, out);
}
static inline int goga_type_indexed(int count, int *blocklens, int *displs, goga_h old, goga_h *out) {
	MPI_Datatype t = MPI_DATATYPE_NULL;
	int rc = MPI_Type_indexed(count, blocklens, displs, G_TYPE(old), &t);
	return goga_type_commit_out(t, rc, out);
}
static inline int goga_type_subarray(int ndims, int *sizes, int *subsizes, int *starts, int order, goga_h old, goga_h *out) {
	MPI_Datatype t = MPI_DATATYPE_NULL;
	int rc = MPI_Type_create_subarray(ndims, sizes, subsizes, starts,
		order == 0 ? MPI_ORDER_C : MPI_ORDER_FORTRAN, G_TYPE(old), &t);
	return goga_type_commit_out(t, rc, out);
}
// goga_type_strided builds the type of an ARMCI strided patch: blocks of
// count[0] bytes, repeated count[i] times at stride[i-1] bytes for each level i,
// as nested hvectors of base (which must be 1 byte, or divide the counts).
static inline int goga_type_strided(int levels, int *count, long long *stride, goga_h base, goga_h *out) {
	MPI_Datatype t, next;
	int rc, i;
	rc = MPI_Type_contiguous(count[0], G_TYPE(base), &t);
	if (rc != MPI_SUCCESS) return rc;
	for (i = 1; i <= levels; i++) {
		rc = MPI_Type_create_hvector(count[i], 1, (MPI_Aint)stride[i - 1], t, &next);
		MPI_Type_free(&t);
		if (rc != MPI_SUCCESS) return rc;
		t = next;
	}
	return goga_type_commit_out(t, MPI_SUCCESS, out);
}
static inline int goga_type_free(goga_h t) {
	MPI_Datatype d = G_TYPE(t);
	return MPI_Type_free(&d);
}
static inline int goga_type_size_extent(goga_h t, long long *size, long long *lb, long long *extent) {
	MPI_Count s, l, e;
	int rc = MPI_Type_size_x(G_TYPE(t), &s);
	if (rc != MPI_SUCCESS) return rc;
	rc = MPI_Type_get_extent_x(G_TYPE(t), &l, &e);
	*size = s; *lb = l; *extent = e;
	return rc;
}

// ---- RMA windows ----

static inline int goga_win_allocate(long long size, int disp, goga_h c, void **base, goga_h *win) {
	MPI_Win w;
	int rc = MPI_Win_allocate((MPI_Aint)size, disp, MPI_INFO_NULL, G_COMM(c), base, &w);
	*win = (goga_h)w;
	if (rc == MPI_SUCCESS) MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
	return rc;
}
static inline int goga_win_allocate_shared(long long size, int disp, int noncontig, goga_h c, void **base, goga_h *win) {
	MPI_Win w;
	MPI_Info info = MPI_INFO_NULL;
	int rc;
	if (noncontig) {
		MPI_Info_create(&info);
		MPI_Info_set(info, "alloc_shared_noncontig", "true");
	}
	rc = MPI_Win_allocate_shared((MPI_Aint)size, disp, info, G_COMM(c), base, &w);
	if (info != MPI_INFO_NULL) MPI_Info_free(&info);
	*win = (goga_h)w;
	if (rc == MPI_SUCCESS) MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
	return rc;
}
static inline int goga_win_shared_query(goga_h w, int rank, long long *size, int *disp, void **base) {
	MPI_Aint s;
	int rc = MPI_Win_shared_query(G_WIN(w), rank, &s, disp, base);
	*size = s;
	return rc;
}
static inline int goga_win_create(void *base, long long size, int disp, goga_h c, goga_h *win) {
	MPI_Win w;
	int rc = MPI_Win_create(base, (MPI_Aint)size, disp, MPI_INFO_NULL, G_COMM(c), &w);
	*win = (goga_h)w;
	if (rc == MPI_SUCCESS) MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
	return rc;
}
static inline int goga_win_free(goga_h w) {
	MPI_Win n = G_WIN(w);
	return MPI_Win_free(&n);
}
static inline int goga_win_lock_all(int assert_, goga_h w) { return MPI_Win_lock_all(assert_, G_WIN(w)); }
static inline int goga_win_unlock_all(goga_h w) { return MPI_Win_unlock_all(G_WIN(w)); }
static inline int goga_win_lock(int type, int rank, int assert_, goga_h w) {
	return MPI_Win_lock(type, rank, assert_, G_WIN(w));
}
static inline int goga_win_unlock(int rank, goga_h w) { return MPI_Win_unlock(rank, G_WIN(w)); }
static inline int goga_win_flush(int rank, goga_h w) { return MPI_Win_flush(rank, G_WIN(w)); }
static inline int goga_win_flush_all(goga_h w) { return MPI_Win_flush_all(G_WIN(w)); }
static inline int goga_win_flush_local(int rank, goga_h w) { return MPI_Win_flush_local(rank, G_WIN(w)); }
static inline int goga_win_flush_local_all(goga_h w) { return MPI_Win_flush_local_all(G_WIN(w)); }
static inline int goga_win_sync(goga_h w) { return MPI_Win_sync(G_WIN(w)); }

static inline int goga_put(void *o, int oc, goga_h ot, int rank, long long disp, int tc, goga_h tt, goga_h w) {
	return MPI_Put(o, oc, G_TYPE(ot), rank, (MPI_Aint)disp, tc, G_TYPE(tt), G_WIN(w));
}
static inline int goga_get(void *o, int oc, goga_h ot, int rank, long long disp, int tc, goga_h tt, goga_h w) {
	return MPI_Get(o, oc, G_TYPE(ot), rank, (MPI_Aint)disp, tc, G_TYPE(tt), G_WIN(w));
}
static inline int goga_accumulate(void *o, int oc, goga_h ot, int rank, long long disp, int tc, goga_h tt, goga_h op, goga_h w) {
	return MPI_Accumulate(o, oc, G_TYPE(ot), rank, (MPI_Aint)disp, tc, G_TYPE(tt), G_OP(op), G_WIN(w));
}
static inline int goga_get_accumulate(void *o, int oc, goga_h ot, void *r, int rc_, goga_h rt,
		int rank, long long disp, int tc, goga_h tt, goga_h op, goga_h w) {
	return MPI_Get_accumulate(o, oc, G_TYPE(ot), r, rc_, G_TYPE(rt), rank, (MPI_Aint)disp, tc, G_TYPE(tt), G_OP(op), G_WIN(w));
}
static inline int goga_fetch_and_op(void *o, void *r, goga_h t, int rank, long long disp, goga_h op, goga_h w) {
	return MPI_Fetch_and_op(o, r, G_TYPE(t), rank, (MPI_Aint)disp, G_OP(op), G_WIN(w));
}
static inline int goga_compare_and_swap(void *o, void *cmp, void *r, goga_h t, int rank, long long disp, goga_h w) {
	return MPI_Compare_and_swap(o, cmp, r, G_TYPE(t), rank, (MPI_Aint)disp, G_WIN(w));
}
static inline int goga_rput(void *o, int oc, goga_h ot, int rank, long long disp, int tc, goga_h tt, goga_h w, goga_h *req) {
	MPI_Request r;
	int rc = MPI_Rput(o, oc, G_TYPE(ot), rank, (MPI_Aint)disp, tc, G_TYPE(tt), G_WIN(w), &r);
	*req = (goga_h)r;
	return rc;
}
static inline int goga_rget(void *o, int oc, goga_h ot, int rank, long long disp, int tc, goga_h tt, goga_h w, goga_h *req) {
	MPI_Request r;
	int rc = MPI_Rget(o, oc, G_TYPE(ot), rank, (MPI_Aint)disp, tc, G_TYPE(tt), G_WIN(w), &r);
	*req = (goga_h)r;
	return rc;
}
static inline int goga_raccumulate(void *o, int oc, goga_h ot, int rank, long long disp, int tc, goga_h tt, goga_h op, goga_h w, goga_h *req) {
	MPI_Request r;
	int rc = MPI_Raccumulate(o, oc, G_TYPE(ot), rank, (MPI_Aint)disp, tc, G_TYPE(tt), G_OP(op), G_WIN(w), &r);
	*req = (goga_h)r;
	return rc;
}

#endif
