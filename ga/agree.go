package ga

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/agreement"
)

// Collective calls validate, agree, then act, by goga's agreement protocol
// (internal/agreement). A call validates its arguments on each process, then
// every process learns, in one small reduction that rides on the
// synchronization the call makes anyway (armci's BarrierMax: a few atomic
// operations over shared memory, elsewhere a reduction of a small record,
// by MPI_Allreduce or point to point), whether any process refused and
// whether all passed the same arguments (a hash of them). Only then does it
// act, so a mistake on one process is an error on every process, with
// nothing changed, instead of a hang. Collective array operations agree once
// more at their end sync, on whether each process's part succeeded.

// ErrPeer is wrapped by the error a process gets when another process
// refused a collective call's arguments or failed in its part; the message
// carries that process's own error, and errors.Is finds its sentinel
// (ErrMemoryLimit, say) too. It is the one error of every goga package's
// agreements (dra.ErrPeer is the same).
var ErrPeer = agreement.ErrPeer

// ErrMismatch is wrapped by the error every process gets when the processes
// passed different arguments to a collective call.
var ErrMismatch = errors.New("the processes passed different arguments to a collective call")

// args is the text of the arguments that must be the same on every process
// of a collective call; its hash is what the processes compare.
type args struct {
	b []byte
	// The groups of the call's arrays (see foreign): the first one's, and
	// any other.
	g      *group
	others []*group
	across bool // a copy, which may read or write a containing group's array
	op     string
	// refused: the call writes a read_only array (see writing).
	refused error
	text    [96]byte // b's first storage: one allocation for both
	sum     int64    // the hash, where kept (see kept); 0: not kept
}

// kept computes the hash once, for args that are made once and used for
// many calls (see messageArgs): they must not change afterwards.
func (l *args) kept() *args {
	l.sum = l.hash()
	return l
}

// name is the call's name as the trace and the profile give it: the
// arguments' first word, else op.
func (l *args) name(op string) string {
	if l != nil {
		return l.op
	}
	return op
}

func newArgs(op string) *args {
	l := &args{op: op}
	l.b = append(l.text[:0], op...)
	return l
}

// ints appends name=[v...].
func (l *args) ints(name string, v ...int) *args {
	l.b = append(l.b, ' ')
	l.b = append(l.b, name...)
	l.b = append(l.b, "=["...)
	for i, x := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = strconv.AppendInt(l.b, int64(x), 10)
	}
	l.b = append(l.b, ']')
	return l
}

// str appends name=v.
func (l *args) str(name, v string) *args {
	l.b = append(l.b, ' ')
	l.b = append(l.b, name...)
	l.b = append(l.b, '=')
	l.b = append(l.b, v...)
	return l
}

// typ appends name.type=T's name.
func typ[T any](l *args, name string) *args {
	l.b = append(l.b, ' ')
	l.b = append(l.b, name...)
	l.b = append(l.b, ".type="...)
	l.b = append(l.b, reflect.TypeFor[T]().String()...) // fmt's %T, without fmt's cost
	return l
}

// array appends an array's identity: its creation number since Init, which
// every process gives the same array because creation is collective, and its
// element type.
func array[T Elem](l *args, name string, a *Array[T]) *args {
	id := 0
	if a != nil {
		id = a.id
		l.note(a.g)
	}
	return typ[T](l.ints(name, id), name)
}

// hash is the text's hash (agreement.Hash: a word at a time, as a byte at a
// time it was a fifth of a small Gop's time on one process).
func (l *args) hash() int64 { return agreement.Hash(l.b) }

// agree is the agreement of a collective call on g's processes: local is
// this process's verdict on its arguments (nil: fine), a their text. With
// fence it is also the call's synchronization (GA_Sync: every operation
// complete, then the barrier). It returns local if this process refused,
// else an ErrPeer error if another did, else an ErrMismatch error if the
// arguments differ, else nil — on every process alike.
func agree(g *group, fence bool, op, array string, local error, a *args) error {
	trace(g, a)
	now, local := a.screen(g, op, array, local)
	if now {
		return local
	}
	defer waited(waitStart(), a.name(op))
	if fence {
		if err := fenceOthers(g); err != nil && local == nil {
			local = err
		}
	}
	w := words(g, local, a)
	v := w[:]
	var err error
	if fence {
		g.endFence()
		err = g.rt.BarrierMax(v)
	} else {
		err = g.rt.AllMax(v)
	}
	if err != nil {
		return err
	}
	return settle(g, op, array, local, a, v)
}

// agreeCarrying is agree (without the fence) whose collective also carries
// a small reduction or broadcast: carry runs armci's AllMaxReduce or
// AllMaxBrdcst with the agreement's words, leaving its result aside, and the
// caller uses the result once agreeCarrying returns nil. The caller checks
// that the data fits (the runtime's ReduceCap) on its process; a process
// that finds it too long takes the other way (agree, then an MPI collective)
// and meets the others in the same collective, so that different lengths
// are a mismatch, not a hang.
func agreeCarrying(g *group, op string, local error, a *args, carry func(v [3]int64) ([3]int64, error)) error {
	trace(g, a)
	now, local := a.screen(g, op, "", local)
	if now {
		return local
	}
	defer waited(waitStart(), a.name(op))
	v := words(g, local, a)
	var mixed error
	if local != nil {
		// A refused call may not name a reduction armci takes: this
		// process only agrees, and the others learn why.
		mixed = g.rt.AllMax(v[:])
	} else {
		// By value: a slice of v passed to carry would move v to the
		// heap on every call.
		v, mixed = carry(v)
	}
	if mixed != nil && !errors.Is(mixed, armci.ErrMixed) {
		return mixed
	}
	if err := settle(g, op, "", local, a, v[:]); err != nil {
		return err
	}
	return mixed // the words agreed, so never: the arguments name the reduction
}

// words are a process's agreement words (agreement.Verdict): whether it
// refused, and the hash of the arguments.
func words(g *group, local error, a *args) [agreement.Words]int64 {
	var sum int64
	if a != nil {
		sum = a.sum
		if sum == 0 {
			sum = a.hash()
		}
	}
	return agreement.Verdict(g.rank, local != nil, sum)
}

// settle is the outcome of an agreement whose words, reduced over every
// process, are v.
func settle(g *group, op, array string, local error, a *args, v []int64) error {
	if root := agreement.Refuser(v); root >= 0 {
		// The last process that refused tells the others why: which
		// sentinel its error wraps, the array it named, and its message.
		var name, msg string
		if local != nil {
			name, msg = array, local.Error()
			var e *Error
			if errors.As(local, &e) {
				name, msg = e.Array, e.Msg
			}
		}
		why, err := agreement.Tell(g.comm(), root, sentinels, local, name, msg)
		if local != nil {
			return local
		}
		if err != nil {
			return err
		}
		return &Error{Op: op, Array: why.Name, Err: why.Sentinel, peer: true, Msg: fmt.Sprintf("process %d refused it: %s", root, why.Msg)}
	}
	if agreement.Mismatch(v) {
		first, err := agreement.Text(g.comm(), string(a.b), 0)
		if err != nil {
			return err
		}
		msg := fmt.Sprintf("the processes passed different arguments: this process (%d) called %s, process 0 %s", g.rank, a.b, first)
		if first == string(a.b) {
			msg = fmt.Sprintf("the processes passed different arguments: this process (%d) called %s as process 0 did; some other process called it differently", g.rank, a.b)
		}
		return &Error{Op: op, Array: array, Err: ErrMismatch, Msg: msg}
	}
	return nil
}

// screen is what a process finds wrong with a collective call before it
// communicates: local, its verdict on the arguments, else a mismatch of the
// arrays' groups (see foreign), else a write into a read_only array (see
// writing). now is foreign's: refused without agreeing.
func (l *args) screen(g *group, op, array string, local error) (now bool, err error) {
	now, err = l.foreign(g, op, array)
	switch {
	case now:
		return true, err
	case local != nil:
		return false, local
	case err != nil:
		return false, err
	case l != nil:
		return false, l.refused
	}
	return false, nil
}

// inStep runs act, this process's part of a collective array operation,
// between the operation's implicit syncs: at the start the processes agree
// on check, each one's verdict on its arguments, and on l, their text; at
// the end, on whether every act succeeded.
func inStep(g *group, op, array string, check error, l *args, act func() error) error {
	if masked, err := begin(g, op, array, check, l); err != nil {
		if masked {
			// Unagreed: still meet the others at the end, with the error.
			return end(g, op, array, err)
		}
		return err
	}
	return end(g, op, array, act())
}

// opening is the start of a collective call that agrees again before it
// ends (the linear algebra): the agreement, with the implicit sync unless
// MaskSync masked it. Masked, the processes still agree, without the
// fence: such a call communicates in its middle, so a refusal must reach
// every process before then. The mask is used up either way.
func opening(g *group, op, array string, local error, a *args) error {
	g.mu.Lock()
	do := g.mask.begin
	g.mask.begin = true
	g.mu.Unlock()
	return agree(g, do, op, array, local, a)
}

// closing is the end of such a call: the last agreement, with the implicit
// sync unless MaskSync masked it.
func closing(g *group, op, array string, local error) error {
	g.mu.Lock()
	do := g.mask.end
	g.mask.end = true
	g.mu.Unlock()
	return agree(g, do, op, array, local, nil)
}

// begin is the start of a collective array operation: the agreement,
// riding on the implicit sync. A start masked by MaskSync makes no
// synchronization at all, as in GA, so the processes do not agree there:
// begin then reports masked, and returns this process's own verdict.
func begin(g *group, op, array string, local error, a *args) (masked bool, err error) {
	g.mu.Lock()
	do := g.mask.begin
	g.mask.begin = true
	g.mu.Unlock()
	if !do {
		trace(g, a)
		now, err := a.screen(g, op, array, local)
		return !now, err
	}
	return false, agree(g, true, op, array, local, a)
}

// end is the end of a collective array operation: the implicit sync, which
// also tells every process whether any process's part failed. Masked, the
// processes do not wait and each returns its own result.
func end(g *group, op, array string, local error) error {
	g.mu.Lock()
	do := g.mask.end
	g.mask.end = true
	g.mu.Unlock()
	if !do {
		return local
	}
	return agree(g, true, op, array, local, nil)
}
