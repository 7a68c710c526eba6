package persistence

import (
	"encoding/binary"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// A schema-1 store (eight index keys per order) opens as schema 2: the
// four status-less keys are gone, the store is consistent, and every list
// still answers.
func TestMigrateSchema1(t *testing.T) {
	dir := t.TempDir()
	s := openTemp(t, dir)
	o := NewOrders(s, nil)
	for i := range 4 {
		status := StatusPending
		if i == 2 {
			status = StatusCancelled
		}
		if _, err := o.Commit(Change{Record: testRecord(i, status)}); err != nil {
			t.Fatal(err)
		}
	}
	// Write what schema 1 also had: the masks without the status.
	b := s.db.NewBatch()
	for i := range 4 {
		rec := testRecord(i, StatusPending)
		h, maker, err := orderRecordIDs(rec)
		if err != nil {
			t.Fatal(err)
		}
		suffix := IndexEntry{CreatedAt: rec.CreatedAt, Hash: h}.suffix()
		for _, mask := range []byte{0, IndexMaker, IndexType, IndexMaker | IndexType} {
			_ = b.Set(append(orderIndexPrefix(mask, maker, 0, OrderTypeCode("limit")), suffix...), nil, nil)
		}
	}
	var v1 [4]byte
	binary.BigEndian.PutUint32(v1[:], 1)
	_ = b.Set(schemaKey(), v1[:], nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if res, err := o.CheckOrders(); err != nil || len(res.Problems) != 16 {
		t.Fatalf("schema-1 keys not seen as extra: %d problems, %v", len(res.Problems), err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openTemp(t, dir)
	defer s.Close()
	v, ok, err := s.get(schemaKey())
	if err != nil || !ok || binary.BigEndian.Uint32(v) != SchemaVersion {
		t.Fatalf("schema after open: %x %v %v", v, ok, err)
	}
	o = NewOrders(s, nil)
	res, err := o.CheckOrders()
	if err != nil || len(res.Problems) != 0 || res.Orders != 4 || res.IndexEntries != 4*len(IndexMasks) {
		t.Fatalf("after migration: %+v, %v", res, err)
	}
	maker := common.HexToAddress("0x1000000000000000000000000000000000000001")
	all, _, err := o.List(ListFilter{Maker: &maker, Limit: 10})
	if err != nil || len(all) != 4 {
		t.Fatalf("wallet list after migration: %d, %v", len(all), err)
	}
	pending, _, err := o.List(ListFilter{Status: StatusPending, Type: "limit", Limit: 10})
	if err != nil || len(pending) != 3 {
		t.Fatalf("pending list after migration: %d, %v", len(pending), err)
	}
}
