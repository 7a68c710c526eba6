package orderstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
)

// randomRecord is a record with every field set from rng, in every shape
// the codec knows (dca, trailing with and without a keeper, triggered).
func randomRecord(rng *rand.Rand) *Record {
	u := func() uint256.Int {
		var v uint256.Int
		v[0], v[1], v[2], v[3] = rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()
		v.Rsh(&v, uint(rng.IntN(257)))
		return v
	}
	a := func() common.Address {
		var x common.Address
		for i := range x {
			x[i] = byte(rng.Uint32())
		}
		return x
	}
	t := func() time.Time { return time.Unix(0, rng.Int64N(4_000_000_000_000_000_000)).UTC() }
	r := &Record{
		Version: 1 + rng.Uint64N(1<<40), Class: chain.Class(1 + rng.IntN(5)), Status: Statuses[rng.IntN(len(Statuses))],
		Order: chain.Order{Salt: u(), Maker: a(), Receiver: a(), TokenIn: a(), TokenOut: a(), AmountIn: u(),
			TriggerPrice: u(), TriggerAmountOut: u(), MakerTraits: u(), Referrer: a(), ReferralFeePpm: rng.Uint32()},
		FilledIn: u(), FilledOut: u(), Executions: rng.Uint32(), Stalled: rng.IntN(2) == 0,
		Reason: []string{"", "short balance", "é \x00 <&>"}[rng.IntN(3)], RevertName: []string{"", "OracleStale"}[rng.IntN(2)],
		AccountID: []string{"", "acc_x"}[rng.IntN(2)], CreatedAt: t(), UpdatedAt: t(),
	}
	r.Hash[0], r.Hash[31] = byte(rng.Uint32()), 1
	if n := rng.IntN(200); n > 0 {
		r.Signature = make([]byte, n)
		for i := range r.Signature {
			r.Signature[i] = byte(rng.Uint32())
		}
	}
	if rng.IntN(2) == 0 {
		r.TriggeredAt = t()
	}
	switch rng.IntN(4) {
	case 0:
		r.DCA = &DCAParams{IntervalSeconds: rng.Uint32(), TotalExecutions: uint16(rng.Uint32()), FlexibilityPpm: rng.Uint32(),
			ShortCircuit: rng.IntN(2) == 0, PriceGated: rng.IntN(2) == 0}
	case 1:
		r.Trailing = &TrailingParams{TrailPpm: rng.Uint32()}
		if rng.IntN(2) == 0 {
			k := a()
			r.Trailing.DesignatedKeeper = &k
		}
	}
	return r
}

// Every record decodes to itself, and its version and status are read
// without a full decode.
func TestOrderCodecRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for range 5000 {
		r := randomRecord(rng)
		v := appendOrder(nil, r)
		var got Record
		if err := decodeOrder(v, &got); err != nil {
			t.Fatalf("decode: %v (record %+v)", err, r)
		}
		if !reflect.DeepEqual(&got, r) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", &got, r)
		}
		if n, err := orderVersion(v); err != nil || n != r.Version {
			t.Fatalf("version %d, %v; want %d", n, err, r.Version)
		}
		if st, n, err := orderHead(v); err != nil || n != r.Version || st != r.Status {
			t.Fatalf("head %s %d, %v; want %s %d", st, n, err, r.Status, r.Version)
		}
	}
}

// A truncated or extended value, an unknown codec and an out-of-range
// field are errors, never a wrong record.
func TestOrderCodecRefusesCorruptValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	v := appendOrder(nil, randomRecord(rng))
	for n := range len(v) {
		var r Record
		if err := decodeOrder(v[:n], &r); !errors.Is(err, errCorruptOrder) {
			t.Fatalf("a value cut to %d of %d bytes decoded: %v", n, len(v), err)
		}
	}
	var r Record
	if err := decodeOrder(append(append([]byte(nil), v...), 0), &r); !errors.Is(err, errCorruptOrder) {
		t.Fatalf("a value with a trailing byte decoded: %v", err)
	}
	bad := append([]byte(nil), v...)
	bad[0] = 2
	if err := decodeOrder(bad, &r); !errors.Is(err, errCorruptOrder) {
		t.Fatalf("codec 2 decoded: %v", err)
	}
}

// The journal refuses an append whose expected version is not the stored
// one, whether the writer is behind (another writer appended meanwhile)
// or the hash of a new order is taken, and writes nothing then.
func TestAppendOrderChecksTheVersion(t *testing.T) {
	_, o := openOrders(t)
	if err := o.LoadHashFilter(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rec := testRecord(1, StatusPending)
	if err := o.AppendOrder(ctx, &Transition{Record: rec}); err != nil {
		t.Fatal(err)
	}
	dup := testRecord(1, StatusPending)
	if err := o.AppendOrder(ctx, &Transition{Record: dup}); !errors.Is(err, ErrVersionConflict) {
		t.Fatalf("second create of one hash: %v", err)
	}
	v2 := testRecord(1, StatusActive)
	v2.Version = 2
	if err := o.AppendOrder(ctx, &Transition{Record: v2, Expect: 1, Prev: StatusPending}); err != nil {
		t.Fatal(err)
	}
	// A writer that loaded version 1 cannot commit over version 2.
	stale := testRecord(1, StatusCancelled)
	stale.Version = 2
	if err := o.AppendOrder(ctx, &Transition{Record: stale, Expect: 1, Prev: StatusPending}); !errors.Is(err, ErrVersionConflict) {
		t.Fatalf("append over a newer version: %v", err)
	}
	got, _, err := o.Load(rec.Hash)
	if err != nil || got.Version != 2 || got.Status != StatusActive {
		t.Fatalf("stored %+v, %v; want version 2 active", got, err)
	}
	if res, err := o.CheckOrders(); err != nil || len(res.Problems) != 0 {
		t.Fatalf("refused appends left %+v, %v", res, err)
	}
	// A version that does not follow Expect is refused before any write.
	skip := testRecord(1, StatusFilled)
	skip.Version = 5
	if err := o.AppendOrder(ctx, &Transition{Record: skip, Expect: 2, Prev: StatusActive}); err == nil {
		t.Fatal("an append skipping versions was accepted")
	}
}

// Writers racing on one order from the same loaded version: exactly one
// wins each version, and the stored record is the winners' last.
func TestAppendOrderRacingWritersOneWinsEachVersion(t *testing.T) {
	_, o := openOrders(t)
	if err := o.LoadHashFilter(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h := testRecord(3, StatusPending).Hash
	const writers, versions = 8, 20
	for v := range uint64(versions) {
		var wg sync.WaitGroup
		wins := make(chan int, writers)
		for w := range writers {
			wg.Go(func() {
				rec := testRecord(3, StatusPending)
				rec.Version, rec.Executions = v+1, uint32(w)
				prev := Status(0)
				if v > 0 {
					prev = StatusPending
				}
				switch err := o.AppendOrder(ctx, &Transition{Record: rec, Expect: v, Prev: prev}); {
				case err == nil:
					wins <- w
				case !errors.Is(err, ErrVersionConflict):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		close(wins)
		var winners []int
		for w := range wins {
			winners = append(winners, w)
		}
		if len(winners) != 1 {
			t.Fatalf("version %d: %d writers won (%v)", v+1, len(winners), winners)
		}
		got, _, err := o.Load(h)
		if err != nil || got.Version != v+1 || got.Executions != uint32(winners[0]) {
			t.Fatalf("version %d stored %+v, %v; winner %d", v+1, got, err, winners[0])
		}
	}
}
