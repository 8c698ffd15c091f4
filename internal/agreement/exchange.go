package agreement

import "math"

// Exchange combines every process's rec in place, as MergeRecords does in
// MPI_Allreduce: the same result on every process, the operands in rank
// order. me is this process's rank of n; xfer sends send (if not nil) to
// peer and receives recv (if not nil) from it, and is the caller's
// transport. It is recursive doubling: with n not a power of two, each of
// the first n - p2 pairs of ranks folds into its odd rank first, and that
// rank hands the result back at the end.
func Exchange(rec *Record, me, n int, xfer func(send, recv *Record, peer int) error) error {
	p2, extra := doubling(n)
	in := NewRecord()
	defer PutRecord(in)
	vr := me - extra // my place among the p2 that double
	if me < 2*extra {
		if me%2 == 0 {
			if err := xfer(rec, nil, me+1); err != nil {
				return err
			}
			return xfer(nil, rec, me+1)
		}
		if err := xfer(nil, in, me-1); err != nil {
			return err
		}
		MergeRecords(in[:], rec[:])
		vr = me / 2
	}
	for bit := 1; bit < p2; bit <<= 1 {
		pv := vr ^ bit
		if err := xfer(rec, in, doublingPeer(pv, extra)); err != nil {
			return err
		}
		if pv < vr {
			MergeRecords(in[:], rec[:])
		} else {
			MergeRecords(rec[:], in[:])
			*rec = *in
		}
	}
	if me < 2*extra {
		return xfer(rec, nil, me-1)
	}
	return nil
}

// doubling is Exchange's plan for n ranks: p2 of them double, the largest
// power of two not above n, after the first 2·extra have folded in pairs.
func doubling(n int) (p2, extra int) {
	p2 = 1
	for p2*2 <= n {
		p2 *= 2
	}
	return p2, n - p2
}

// doublingPeer is the rank at place pv among the ranks that double.
func doublingPeer(pv, extra int) int {
	if pv < extra {
		return 2*pv + 1
	}
	return pv + extra
}

// Partners lists the ranks that Exchange pairs rank me of n with.
func Partners(n, me int) []int {
	p2, extra := doubling(n)
	if me < 2*extra && me%2 == 0 {
		return []int{me + 1}
	}
	var out []int
	vr := me - extra
	if me < 2*extra {
		out, vr = append(out, me-1), me/2
	}
	for bit := 1; bit < p2; bit <<= 1 {
		out = append(out, doublingPeer(vr^bit, extra))
	}
	return out
}

// Len is how many of rec's words an exchange sends: a tail that combines
// as nothing stays behind, and Received restores it at the receiver. A
// plain barrier's record sends none; ga's agreements send their maxima and
// the header, 40 bytes instead of the whole record's 296.
func Len(rec *Record) int {
	switch h := rec[Header]; h {
	case 0:
		for _, m := range rec[:MaxReduce] {
			if m != math.MinInt64 {
				return Header + 1
			}
		}
		return 0
	case Mixed:
		return Header + 1
	default:
		_, _, n, _ := ReductionOf(h)
		return Header + 1 + min((n+7)/8, RecordCap/8)
	}
}

// Received makes recv the record whose words Len sent as b.
func Received(recv *Record, b []byte) {
	copy(bytesOf(recv[:]), b)
	pad(recv, len(b)/8)
}

// pad fills rec from word k on as Len left it out: maxima that change no
// maximum and a zero header. The bytes are read only under a header that
// sent them.
func pad(rec *Record, k int) {
	for i := k; i < MaxReduce; i++ {
		rec[i] = math.MinInt64
	}
	if k <= Header {
		rec[Header] = 0
	}
}
