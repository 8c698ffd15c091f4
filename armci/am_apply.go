package armci

import (
	"unsafe"
)

// What the active-message server does with a request aimed at this
// process: apply it to the part it names and answer.

// handle applies one request from src.
func (a *amServer) handle(src int, h []int64, payload []byte) {
	if h[hOp] == amLock || h[hOp] == amUnlock {
		a.mutexRequest(src, h)
		return
	}
	p := a.part(h[hID])
	n := int(h[hBytes])
	if h[hFlags]&flagFollows != 0 {
		if h[hOp] == amPut && h[hShape] == shapeContig && p.mem != nil {
			// Received in place.
			a.recv(p.mem[h[hOff]:int(h[hOff])+n], src, amTagData)
			return
		}
		payload = a.buffer(n)
		a.recv(payload, src, amTagData)
	}
	switch h[hOp] {
	case amPut:
		if p.mem != nil && !scatter(h, p.mem, payload) {
			walk(h, func(r, q, n int) { copyBytes(p.mem[r:r+n], payload[q:q+n]) })
		}
	case amGet:
		a.reply(src, h, p)
	case amAcc:
		if p.mem != nil {
			k, scale := accKinds[int(h[hFlags]>>8)&0xff], [2]int64(h[hRest:hRest+2])
			lockWord(p.lock)
			walk(h, func(r, q, n int) { k.add(p.mem[r:r+n], payload[q:q+n], scale) })
			unlockWord(p.lock)
		}
	case amRmw:
		var old int64
		if p.mem != nil {
			old = rmwAt(unsafe.Pointer(&p.mem[h[hOff]]), int(h[hFlags]>>8)&0xff, int(h[hFlags]>>16)&0xff, h[hRest], h[hRest+1])
		}
		a.send(bytesOf([]int64{old}), src, int(h[hReply]))
	case amFence:
		a.send([]byte{}, src, int(h[hReply]))
	}
}

// reply answers a get: the bytes in place for one block, else packed.
func (a *amServer) reply(src int, h []int64, p amPart) {
	n := int(h[hBytes])
	tag := int(h[hReply])
	if p.mem == nil {
		a.send(a.buffer(n), src, tag)
		return
	}
	if h[hShape] == shapeContig {
		a.send(p.mem[h[hOff]:int(h[hOff])+n], src, tag)
		return
	}
	out := a.buffer(n)
	walk(h, func(r, q, n int) { copyBytes(out[q:q+n], p.mem[r:r+n]) })
	a.send(out, src, tag)
}
