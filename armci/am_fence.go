package armci

import "github.com/goga-hpc/goga/mpi"

// wrote counts a put or accumulate sent to the process of rank to (in its
// turn) and lists to among the targets written, if it is not listed yet.
func (a *amServer) wrote(to int) {
	a.sent[to].Add(1)
	if a.listed[to].Load() {
		return
	}
	a.writtenMu.Lock()
	if !a.listed[to].Load() {
		a.listed[to].Store(true)
		a.written = append(a.written, to)
	}
	a.writtenMu.Unlock()
}

// fence asks the owner's server to answer once everything this process sent
// it before is done; nothing is asked when nothing was sent since the last
// fence.
func (v *viaAM) fence() error { return v.s.rt.am.fence(v.to) }

func (a *amServer) fence(to int) error {
	if a.fenced[to].Load() >= a.sent[to].Load() {
		return nil // nothing sent since a fence saw all done: no turn to wait for
	}
	end := a.turn(to)
	upto := a.sent[to].Load()
	if a.fenced[to].Load() >= upto {
		end()
		return nil
	}
	tag := a.replyTag()
	h := make([]int64, hRest+2)
	h[hOp], h[hReply] = amFence, int64(tag)
	err := a.post(encode(h, nil), to)
	var r *mpi.Request
	if err == nil {
		r, err = mpi.Irecv(a.comm, []byte{}, to, tag)
	}
	end()
	if err == nil {
		err = a.wait(r)
	}
	for err == nil {
		// Another goroutine's fence may have seen more done meanwhile.
		if f := a.fenced[to].Load(); f >= upto || a.fenced[to].CompareAndSwap(f, upto) {
			break
		}
	}
	return err
}

// fenceAll fences every target this process sent puts or accumulates to,
// but skip (-1: none): those listed as written, so that its cost grows with
// the targets written since the last fence, not with the processes.
func (a *amServer) fenceAll(skip int) error {
	var buf [16]int
	a.writtenMu.Lock()
	todo := append(buf[:0], a.written...)
	a.writtenMu.Unlock()
	for _, to := range todo {
		if to == skip {
			continue
		}
		if err := a.fence(to); err != nil {
			return err
		}
	}
	a.unlist()
	return nil
}

// unlist takes off the written list the targets whose writes a fence has
// seen done. A target's listed flag is cleared before its counters are
// read: a put counted after that read finds it clear and lists the target
// again (wrote waits for writtenMu), and one counted before it is seen
// here, which keeps the target listed.
func (a *amServer) unlist() {
	a.writtenMu.Lock()
	defer a.writtenMu.Unlock()
	keep := a.written[:0]
	for _, to := range a.written {
		a.listed[to].Store(false)
		if a.fenced[to].Load() < a.sent[to].Load() {
			a.listed[to].Store(true)
			keep = append(keep, to)
		}
	}
	a.written = keep
}
