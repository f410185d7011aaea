package weakfix

import (
	"context"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

func parse(t *testing.T, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func all(int, int) bool { return true }

const mp = `shared x, y;
process P { x = 1; y = 1; }
process Q { local r1, r2; r1 = y; r2 = x; assert(!(r1 == 1 && r2 == 0)); }`

// MP under arm: two changes; with raises the cheapest are a release write
// and an acquire read, without them dmb ishst and dmb ishld.
func TestMP(t *testing.T) {
	sys := parse(t, mp)
	res, err := Insert(context.Background(), sys, memmodel.ARM, Options{CanRaise: all}, nil)
	if err != nil || res.Verdict != Correct || len(res.Changes) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	var got []string
	for _, c := range res.Changes {
		if c.Site != nil {
			got = append(got, c.Instr)
		} else {
			got = append(got, c.Ann.String())
		}
		if c.Needed == nil {
			t.Errorf("change %+v has no execution showing it needed", c)
		}
	}
	if g := strings.Join(got, ","); g != "release,acquire" {
		t.Errorf("changes %s", g)
	}
	res, err = Insert(context.Background(), sys, memmodel.ARM, Options{}, nil)
	if err != nil || res.Verdict != Correct || len(res.Changes) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	got = nil
	for _, c := range res.Changes {
		got = append(got, c.Instr)
	}
	if g := strings.Join(got, ","); g != "dmb ishst,dmb ishld" {
		t.Errorf("barriers %s", g)
	}
	res, err = Insert(context.Background(), sys, memmodel.RISCV, Options{}, nil)
	if err != nil || len(res.Changes) != 2 || res.Changes[0].Instr != "fence w,w" || res.Changes[1].Instr != "fence r,rw" {
		t.Fatalf("riscv: %+v %v", res, err)
	}
	res, err = Insert(context.Background(), sys, memmodel.RMO, Options{}, nil)
	if err != nil || len(res.Changes) != 2 || res.Changes[0].Instr != "membar #StoreStore" || res.Changes[1].Instr != "membar #LoadLoad" {
		t.Fatalf("rmo: %+v %v", res, err)
	}
}

// SB needs a full barrier in each process (store→load); LB two changes.
func TestSBLB(t *testing.T) {
	sb := parse(t, `shared x, y;
process P { local r; x = 1; r = y; assume(r == 0); a: skip; }
process Q { local r; y = 1; r = x; assume(r == 0); b: skip; }
forbidden P@a, Q@b;`)
	res, err := Insert(context.Background(), sb, memmodel.ARM, Options{CanRaise: all}, nil)
	if err != nil || res.Verdict != Correct || len(res.Changes) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	for _, c := range res.Changes {
		if c.Site == nil || c.Kind != cs.FullFence {
			// a release write then an acquire read is ordered on arm (RCsc)
			if c.Site != nil {
				t.Errorf("SB change %+v", c.Change)
			}
		}
	}
	lb := parse(t, `shared x, y;
process P { local r1; r1 = x; y = 1; assume(r1 == 1); a: skip; }
process Q { local r2; r2 = y; x = 1; assume(r2 == 1); b: skip; }
forbidden P@a, Q@b;`)
	res, err = Insert(context.Background(), lb, memmodel.ARM, Options{}, nil)
	if err != nil || res.Verdict != Correct || len(res.Changes) != 2 {
		t.Fatalf("LB %+v %v", res, err)
	}
	for _, c := range res.Changes {
		if c.Instr != "dmb ishld" {
			t.Errorf("LB barrier %s", c.Instr)
		}
	}
}

// A program wrong under SC gets no change.
func TestSCBug(t *testing.T) {
	sys := parse(t, `shared x; process P { x = 1; } process Q { local r; r = x; assert(r == 0); }`)
	res, err := Insert(context.Background(), sys, memmodel.ARM, Options{}, nil)
	if err != nil || res.Verdict != SCBug || res.Witness == nil {
		t.Fatalf("%+v %v", res, err)
	}
}
