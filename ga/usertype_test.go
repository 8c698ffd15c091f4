package ga_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// particle is a user-defined element type with padding inside it.
type particle struct {
	X, Y float64
	ID   int32
	Tag  [3]byte
}

func particleAt(k int) particle {
	return particle{X: float64(k), Y: -float64(k), ID: int32(10 * k), Tag: [3]byte{byte(k), 1, 2}}
}

// TestUserType: arrays of a registered struct type, moved by Put, Get,
// Scatter, Gather, the non-blocking forms and the field calls, on 1-4
// processes; registration and misuse refused with nothing changed.
func TestUserType(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		me, n := ga.Nodeid(), ga.Nnodes()

		wantErr(t, "string field", ga.RegisterType[struct{ S string }](), "RegisterType", "", nil, "field S", "string")
		wantErr(t, "pointer", ga.RegisterType[*int](), "RegisterType", "", nil, "ptr")
		wantErr(t, "empty", ga.RegisterType[struct{}](), "RegisterType", "", nil, "no bytes")
		before := ga.InquireMemory()
		_, err := ga.CreateUser[particle]("early", []int{4}, nil)
		wantErr(t, "unregistered", err, "CreateUser", "early", nil, "not registered")
		must(t, ga.RegisterType[particle]())
		wantErr(t, "twice", ga.RegisterType[particle](), "RegisterType", "", nil, "already registered")
		_, err = ga.CreateUser[particle]("bad", []int{4, 0}, nil)
		wantErr(t, "bad dims", err, "CreateUser", "bad", nil, "[4 0]")
		// One process without the registration: refused on every process.
		if me == n-1 {
			must(t, ga.DeregisterType[particle]())
		}
		_, err = ga.CreateUser[particle]("partly", []int{4}, nil)
		if me == n-1 {
			wantErr(t, "partly registered", err, "CreateUser", "partly", nil, "not registered")
			must(t, ga.RegisterType[particle]())
		} else {
			wantErr(t, "partly registered", err, "CreateUser", "partly", ga.ErrPeer)
		}
		if ga.InquireMemory() != before {
			t.Errorf("refused creations took memory: %d bytes, %d before", ga.InquireMemory(), before)
		}

		dims := []int{5, 7}
		u, err := ga.CreateUser[particle]("parts", dims, nil)
		must(t, err)
		defer mpitest.Cleanup(t, u.Destroy)
		all := make([]particle, 35)
		for k := range all {
			all[k] = particleAt(k)
		}
		if me == n-1 {
			must(t, u.Put([]int{0, 0}, []int{4, 6}, all, nil))
		}
		must(t, ga.Sync())
		// A patch into a buffer with room to spare (ld 4).
		got := make([]particle, 3*4)
		must(t, u.Get([]int{1, 2}, []int{3, 5}, got, []int{4}))
		for i := range 3 {
			for j := range 4 {
				if want := particleAt((1+i)*7 + 2 + j); got[i*4+j] != want {
					t.Errorf("Get element (%d, %d) = %+v, want %+v", 1+i, 2+j, got[i*4+j], want)
				}
			}
		}

		// Fields: Y of a column, into a padded buffer; then rank 0 writes
		// the IDs of a patch and every other field stays.
		ys := make([]float64, 5*2)
		h, err := ga.NbGetField[float64](u, unsafe.Offsetof(particle{}.Y), []int{0, 3}, []int{4, 3}, ys, []int{2})
		must(t, err)
		must(t, h.Wait())
		for i := range 5 {
			if ys[2*i] != -float64(i*7+3) {
				t.Errorf("GetField Y of (%d, 3) = %v, want %v", i, ys[2*i], -float64(i*7+3))
			}
		}
		must(t, ga.Sync())
		if me == 0 {
			ids := []int32{-1, -2, -3, -4, -5, -6}
			must(t, ga.PutField(u, unsafe.Offsetof(particle{}.ID), []int{2, 4}, []int{3, 6}, ids, nil))
			tags := [][3]byte{{9, 9, 9}}
			h, err := ga.NbPutField(u, unsafe.Offsetof(particle{}.Tag), []int{4, 6}, []int{4, 6}, tags, nil)
			must(t, err)
			must(t, h.Wait())
		}
		must(t, ga.Sync())
		want := append([]particle(nil), all...)
		for k, sub := range [][2]int{{2, 4}, {2, 5}, {2, 6}, {3, 4}, {3, 5}, {3, 6}} {
			want[sub[0]*7+sub[1]].ID = int32(-1 - k)
		}
		want[34].Tag = [3]byte{9, 9, 9}
		got = make([]particle, 35)
		h, err = u.NbGet([]int{0, 0}, []int{4, 6}, got, nil)
		must(t, err)
		must(t, h.Wait())
		if !sameElems(t, "after PutField", got, want) {
			mpitest.Fatalf(t, "fields")
		}
		ids := make([]int32, 2)
		must(t, ga.GetField(u, unsafe.Offsetof(particle{}.ID), []int{3, 5}, []int{3, 6}, ids, nil))
		if ids[0] != -5 || ids[1] != -6 {
			t.Errorf("GetField ID of (3, 5..6) = %v, want [-5 -6]", ids)
		}
		must(t, ga.Sync())

		// Scatter from every process at once, to elements of its own;
		// Gather them back everywhere.
		subs := [][]int{{me % 5, me}, {4 - me%5, 6 - me}}
		vals := []particle{particleAt(100 + me), particleAt(200 + me)}
		must(t, u.Scatter(vals, subs))
		if me == 0 {
			h, err := u.NbPut([]int{0, 6}, []int{0, 6}, []particle{particleAt(-1)}, nil)
			must(t, err)
			must(t, h.Wait())
		}
		must(t, ga.Sync())
		for r := range n {
			got := make([]particle, 2)
			must(t, u.Gather(got, [][]int{{r % 5, r}, {4 - r%5, 6 - r}}))
			if w0, w1 := particleAt(100+r), particleAt(200+r); got[0] != w0 || got[1] != w1 {
				t.Errorf("Gather of rank %d's scatter: %+v, want %+v, %+v", r, got, w0, w1)
			}
		}
		one := make([]particle, 1)
		must(t, u.Get([]int{0, 6}, []int{0, 6}, one, nil))
		if one[0] != particleAt(-1) {
			t.Errorf("after NbPut: %+v, want %+v", one[0], particleAt(-1))
		}
		must(t, ga.Sync())

		// Misuse, on every process: nothing changes.
		must(t, u.Get([]int{0, 0}, []int{4, 6}, got, nil))
		must(t, ga.Sync())
		wantErr(t, "field past the end", ga.PutField(u, 20, []int{0, 0}, []int{0, 0}, []float64{1}, nil), "PutField", "parts", nil, "8-byte field at byte 20", "24-byte")
		wantErr(t, "field of strings", ga.PutField(u, 0, []int{0, 0}, []int{0, 0}, []string{"x"}, nil), "PutField", "parts", nil, "string")
		// A field must be one part of the element: not a misaligned cut,
		// not a span across two fields, not padding.
		wantErr(t, "misaligned field", ga.PutField(u, 3, []int{0, 0}, []int{0, 0}, []float64{1}, nil), "PutField", "parts", nil, "at byte 3", "inside X (float64, bytes 0 to 7)")
		wantErr(t, "field across two", ga.PutField(u, 0, []int{0, 0}, []int{0, 0}, [][2]float64{{1, 2}}, nil), "PutField", "parts", nil, "at byte 0", "inside X")
		wantErr(t, "field across X and Y", ga.PutField(u, 4, []int{0, 0}, []int{0, 0}, []float64{1}, nil), "PutField", "parts", nil, "at byte 4", "inside X")
		wantErr(t, "field across Y and ID", ga.PutField(u, 8, []int{0, 0}, []int{0, 0}, [][3]int32{{1, 2, 3}}, nil), "PutField", "parts", nil, "inside Y")
		wantErr(t, "field across ID and Tag", ga.GetField(u, 16, []int{0, 0}, []int{0, 0}, make([]int64, 1), nil), "GetField", "parts", nil, "inside ID (int32, bytes 16 to 19)")
		wantErr(t, "field in the padding", ga.PutField(u, 23, []int{0, 0}, []int{0, 0}, []byte{1}, nil), "PutField", "parts", nil, "byte 23 is padding")
		_, err = ga.NbPutField(u, 2, []int{0, 0}, []int{0, 0}, []int32{1}, nil)
		wantErr(t, "misaligned field, non-blocking", err, "NbPutField", "parts", nil, "at byte 2")
		wantErr(t, "short buffer", u.Put([]int{0, 0}, []int{1, 1}, got[:3], nil), "Put", "parts", nil)
		wantErr(t, "outside", u.Put([]int{0, 0}, []int{5, 0}, got[:6], nil), "Put", "parts", nil, "5")
		wantErr(t, "short field buffer", ga.PutField(u, 0, []int{0, 0}, []int{0, 1}, []float64{1}, nil), "PutField", "parts", nil)
		wantErr(t, "scatter outside", u.Scatter(got[:1], [][]int{{0, 7}}), "Scatter", "parts", nil, "[0 7]")
		_, err = ga.NbGetField[float64](u, 17, []int{0, 0}, []int{0, 0}, make([]float64, 1), nil)
		wantErr(t, "field past the end, non-blocking", err, "NbGetField", "parts", nil, "at byte 17")
		must(t, ga.Sync())
		after := make([]particle, 35)
		must(t, u.Get([]int{0, 0}, []int{4, 6}, after, nil))
		sameElems(t, "after refused calls", after, got)

		var s strings.Builder
		must(t, ga.Fsummarize(&s, false))
		if !strings.Contains(s.String(), "ga_test.particle parts") {
			t.Errorf("Summarize does not name the element type:\n%s", s.String())
		}
		// Deregistered: no new arrays; this one keeps working.
		must(t, ga.DeregisterType[particle]())
		wantErr(t, "twice", ga.DeregisterType[particle](), "DeregisterType", "", nil, "not registered")
		_, err = ga.CreateUser[particle]("late", []int{3}, nil)
		wantErr(t, "deregistered", err, "CreateUser", "late", nil, "not registered")
		must(t, u.Get([]int{4, 6}, []int{4, 6}, after[:1], nil))
		must(t, ga.Sync())
		var none *ga.UserArray[particle]
		wantErr(t, "nil", none.Get([]int{0}, []int{0}, after, nil), "Get", "", ga.ErrNil)
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestUserTypeOnGroup: an array of a registered type on the group of the
// even ranks (CreateUserConfig) lives on that group's processes alone and
// moves its elements between them; the mirror group is refused on every
// process.
func TestUserTypeOnGroup(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		must(t, ga.RegisterType[particle]())
		before := ga.InquireMemory()
		_, err := ga.CreateUserConfig[particle]("mirrored", []int{4}, nil, ga.PgroupGetMirror())
		wantErr(t, "on the mirror group", err, "CreateUserConfig", "mirrored", nil, "cannot be mirrored")
		if ga.InquireMemory() != before {
			t.Errorf("a refused creation took memory: %d bytes, %d before", ga.InquireMemory(), before)
		}
		p, in := evens(t)
		defer mpitest.Cleanup(t, p.Destroy)
		if !in {
			return
		}
		dims := []int{6, 3}
		u, err := ga.CreateUserConfig[particle]("evens", dims, nil, p)
		must(t, err)
		defer mpitest.Cleanup(t, u.Destroy)
		covered := 0
		for r := range p.Nnodes() {
			if lo, hi, ok := u.Distribution(r); ok {
				covered += (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1)
			}
		}
		if _, _, ok := u.Distribution(p.Nnodes()); covered != 18 || ok {
			t.Errorf("the group's %d processes hold %d of 18 elements (a block past them: %v)", p.Nnodes(), covered, ok)
		}
		all := make([]particle, 18)
		for k := range all {
			all[k] = particleAt(k)
		}
		if p.Nodeid() == p.Nnodes()-1 {
			must(t, u.Put([]int{0, 0}, []int{5, 2}, all, nil))
		}
		must(t, p.Sync())
		got := make([]particle, 18)
		must(t, u.Get([]int{0, 0}, []int{5, 2}, got, nil))
		sameElems(t, "Get on the group", got, all)
		must(t, p.Sync())
	})
}
