// link.h: records sent over TCP links between two processes (armci's
// agreements across nodes, armci/link.go). A record travels as a frame: its
// length in 4 bytes, then its bytes.
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include "shim.h"

// GOGA_LINK_FRAME is the largest frame, its length word included.
#define GOGA_LINK_FRAME 1024

// GOGA_LINK_BUF is a link's receive buffer: a frame and the start of the
// next one, which the peer may have sent before this process read the one
// before (it goes on to the next agreement once it has read this
// process's frame).
#define GOGA_LINK_BUF (2 * GOGA_LINK_FRAME)

// goga_link_rx is what a link's receive buffer holds: have bytes, of which
// the first used are a frame already returned.
typedef struct {
	int have, used;
} goga_link_rx;

// goga_linked is what a link call returns by value: a frame received
// (done), its record's bytes (count, after the frame's length word at the
// buffer's start), MPI's return code of the probe, and the errno of a
// failed send or receive (-1: the peer closed the link).
typedef struct {
	int done, count, rc, err;
} goga_linked;

// goga_link_frame drops the frame returned last from buf and reports
// whether a whole one (or a bad length) is there now.
static inline int goga_link_frame(char *buf, goga_link_rx *rx, goga_linked *x) {
	if (rx->used > 0) {
		rx->have -= rx->used;
		memmove(buf, buf + rx->used, rx->have);
		rx->used = 0;
	}
	if (rx->have < 4) return 0;
	int32_t n;
	memcpy(&n, buf, 4);
	if (n < 0 || n > GOGA_LINK_FRAME - 4) {
		x->err = EPROTO;
		return 1;
	}
	if (rx->have < 4 + n) return 0;
	x->done = 1;
	x->count = n;
	rx->used = 4 + n;
	return 1;
}

// goga_link_wait receives into buf (GOGA_LINK_BUF bytes), without
// blocking, until a frame is there, up to spins times; it stops early, not
// done, when a message of tag ptag waits on pc (probed every eighth spin: a
// probe costs MPI's progress, a system call or more). One receive takes
// what the socket holds, the length word and the record together.
static inline goga_linked goga_link_wait(int fd, char *buf, goga_link_rx *rx, goga_h pc, int ptag, int spins) {
	goga_linked x = {0, 0, MPI_SUCCESS, 0};
	for (int i = 0; i < spins; i++) {
		if (goga_link_frame(buf, rx, &x)) return x;
		ssize_t r = recv(fd, buf + rx->have, GOGA_LINK_BUF - rx->have, MSG_DONTWAIT);
		if (r > 0) {
			rx->have += r;
			continue;
		}
		if (r == 0) {
			x.err = -1;
			return x;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			x.err = errno;
			return x;
		}
		if ((i & 7) == 7) {
			int waiting = 0;
			x.rc = MPI_Iprobe(MPI_ANY_SOURCE, ptag, G_COMM(pc), &waiting, MPI_STATUS_IGNORE);
			if (x.rc != MPI_SUCCESS || waiting) return x;
		}
	}
	goga_link_frame(buf, rx, &x);
	return x;
}

// goga_link_exchange sends sn bytes of sbuf as a frame (none if sn < 0),
// then, unless buf is NULL, receives the peer's as goga_link_wait does.
// The socket may be nonblocking (Go's): a full send buffer is waited out,
// as the frames are small and the peer drains them.
static inline goga_linked goga_link_exchange(int fd, const char *sbuf, int sn, char *buf, goga_link_rx *rx,
		goga_h pc, int ptag, int spins) {
	goga_linked x = {1, 0, MPI_SUCCESS, 0};
	if (sn >= 0) {
		char out[GOGA_LINK_FRAME];
		int32_t n = sn;
		if (sn > GOGA_LINK_FRAME - 4) {
			x.err = EMSGSIZE;
			return x;
		}
		memcpy(out, &n, 4);
		memcpy(out + 4, sbuf, sn);
		for (int off = 0, len = 4 + sn; off < len;) {
			ssize_t r = send(fd, out + off, len - off, MSG_NOSIGNAL);
			if (r >= 0) {
				off += r;
			} else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
				x.err = errno;
				return x;
			}
		}
	}
	if (buf == NULL) return x;
	return goga_link_wait(fd, buf, rx, pc, ptag, spins);
}
