package orderstore

import (
	"encoding/binary"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/persistence"
)

// BenchmarkOrderApplyCreates applies new orders the way a cluster node's
// materialiser does under load (batches of 16 creates of one partition's
// log), into a store that already holds 50,000 orders flushed to its
// tables, with the hash filter loaded as the engine loads it at start.
// The figure is per order.
func BenchmarkOrderApplyCreates(b *testing.B) {
	s, err := persistence.Open(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	o := New(s, persistence.NewOutbox(s, nil, nil))
	record := func(i int) *Record {
		r := testRecord(i, StatusPending)
		r.Hash = crypto.Keccak256Hash(binary.BigEndian.AppendUint64(nil, uint64(i)))
		return r
	}
	const stored, batch = 50_000, 16
	seq := uint64(0)
	apply := func(first, n int) {
		a := o.BeginApply("ORDERS_0")
		defer a.Close()
		for i := first; i < first+n; i++ {
			seq++
			if _, err := a.Add(&Transition{Record: record(i)}, seq); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := a.Commit(seq); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < stored; i += 1000 {
		apply(i, 1000)
	}
	if err := s.DB().Flush(); err != nil {
		b.Fatal(err)
	}
	if err := o.LoadHashFilter(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	next := stored
	for b.Loop() {
		apply(next, batch)
		next += batch
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/order")
}
