package orderstore

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// openOrders opens a store in a new temporary folder, closed when the
// test ends, and an order store on it without an outbox.
func openOrders(t *testing.T) (*persistence.Store, *Store) {
	t.Helper()
	s := persistencetest.OpenShared(t, nil)
	return s, New(s, nil)
}

// testRecord is the i-th test order (hash i+1) in status.
func testRecord(i int, status Status) *Record {
	var h common.Hash
	h[31], h[30], h[29] = byte(i+1), byte((i+1)>>8), byte((i+1)>>16)
	return &Record{
		Hash: h, Version: 1, Class: chain.ClassLimit, Status: status,
		Order:     chain.Order{Maker: common.HexToAddress("0x1000000000000000000000000000000000000001"), AmountIn: *uint256.NewInt(1)},
		CreatedAt: time.Unix(1_800_000_000+int64(i), 0).UTC(), UpdatedAt: time.Unix(1_800_000_000, 0).UTC(),
	}
}

// put appends rec as the next version of its order (a create when none is
// stored), with events, and returns the append's error.
func put(o *Store, rec *Record, events ...persistence.OutboxEvent) error {
	t := &Transition{Record: rec, Events: events}
	if cur, ok, err := o.Load(rec.Hash); err != nil {
		return err
	} else if ok {
		t.Expect, t.Prev = cur.Version, cur.Status
	}
	rec.Version = t.Expect + 1
	return o.AppendOrder(context.Background(), t)
}

// mustPut is put that fails the test on an error.
func mustPut(t testing.TB, o *Store, rec *Record, events ...persistence.OutboxEvent) {
	t.Helper()
	if err := put(o, rec, events...); err != nil {
		t.Fatal(err)
	}
}
