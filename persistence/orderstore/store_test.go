package orderstore

import (
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

func TestCheckOrdersFindsEveryInconsistency(t *testing.T) {
	s, o := openOrders(t)
	for i := range 3 {
		mustPut(t, o, testRecord(i, StatusPending))
	}
	// A status change moves the four index keys.
	mustPut(t, o, testRecord(1, StatusCancelled))
	res, err := o.CheckOrders()
	if err != nil || len(res.Problems) != 0 || res.Orders != 3 || res.IndexEntries != 12 {
		t.Fatalf("consistent store reported %+v, %v", res, err)
	}
	pending, _, err := o.List(ListFilter{Status: StatusPending, Limit: 10})
	if err != nil || len(pending) != 2 {
		t.Fatalf("pending list %d, %v", len(pending), err)
	}
	// Remove one index key of order 0 and add a stray one for a missing order.
	keys := orderIndexKeys(testRecord(0, StatusPending), StatusPending)
	stray := orderIndexKeys(testRecord(9, StatusPending), StatusPending)
	b := s.DB().NewBatch()
	_ = b.Delete(keys[3], nil)
	_ = b.Set(stray[0], nil, nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	res, err = o.CheckOrders()
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(res.Problems, "\n")
	if len(res.Problems) != 2 || !strings.Contains(joined, "missing index entry") || !strings.Contains(joined, "has no order") {
		t.Fatalf("problems %v", res.Problems)
	}
	// List refuses to serve an index entry without its order.
	if _, _, err := o.List(ListFilter{Status: StatusPending, Limit: 10}); err == nil {
		t.Fatal("list served a dangling index entry")
	}
}

func TestHashFilterHasNoFalseNegatives(t *testing.T) {
	_, o := openOrders(t)
	if !o.MayExist(common.Hash{1}) {
		t.Fatal("without a loaded filter every hash may exist")
	}
	stored := testRecord(1, StatusPending)
	mustPut(t, o, stored)
	if err := o.LoadHashFilter(); err != nil {
		t.Fatal(err)
	}
	if !o.MayExist(stored.Hash) {
		t.Fatal("a stored hash is missing from the loaded filter")
	}
	// Orders created after the load are added as they are written.
	created := testRecord(2, StatusPending)
	mustPut(t, o, created)
	if !o.MayExist(created.Hash) {
		t.Fatal("a hash created after the load is missing from the filter")
	}
}

// TestOpenOrdersInHashOrder stores more open orders than one load chunk,
// in three statuses, and checks OpenOrders yields exactly the pending and
// active ones, in hash order, and fails on an index entry whose order is
// missing.
func TestOpenOrdersInHashOrder(t *testing.T) {
	s, o := openOrders(t)
	statuses := []Status{StatusPending, StatusActive, StatusCancelled}
	var want []string
	for i := range 3000 {
		if status := statuses[i%3]; status != StatusCancelled {
			want = append(want, testRecord(i, status).Hash.Hex())
		}
	}
	sort.Strings(want) // the same length and case: hash order
	for i := range 3000 {
		mustPut(t, o, testRecord(i, statuses[i%3]))
	}
	var got []string
	if err := o.OpenOrders(func(rec *Record) error {
		got = append(got, rec.Hash.Hex())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d open orders, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("open order %d is %s, want %s", i, got[i], want[i])
		}
	}
	// An index entry without its order fails the walk.
	stray := orderIndexKeys(testRecord(5000, StatusActive), StatusActive)
	if err := s.DB().Set(stray[0], nil, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	err := o.OpenOrders(func(*Record) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "has no order") {
		t.Fatalf("walk over a dangling index entry: %v", err)
	}
}
