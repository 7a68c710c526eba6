package persistence

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// appendOrderJSON writes what json.Marshal writes, for every shape of
// record: optional parts present or not, strings that need escaping, times
// in other zones.
func TestOrderJSONMatchesEncodingJSON(t *testing.T) {
	for v, n := range map[any]int{OrderRecord{}: 18, SignedOrder{}: 11, DCAParams{}: 6, TrailingParams{}: 2} {
		if got := reflect.TypeOf(v).NumField(); got != n {
			t.Fatalf("%T has %d fields: add the new one to appendOrderJSON, then here", v, got)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	odd := []string{"", "plain", `quote " and \ slash`, "<html> & co", "tab\there\nline\x01\x1f", "é ünïcode 中文", "\u2028\u2029", "bad utf8 \xff\xfe", "0x" + "ab12"}
	pick := func() string { return odd[rng.IntN(len(odd))] }
	zone := time.FixedZone("odd", -(3*3600 + 30*60))
	for i := range 2000 {
		r := testRecord(i, StatusPending)
		r.OrderType, r.Status, r.Pair, r.Signature = pick(), pick(), pick(), pick()
		r.Order = SignedOrder{Salt: pick(), Maker: pick(), Receiver: pick(), TokenIn: pick(), TokenOut: pick(), AmountIn: pick(),
			TriggerPrice: pick(), TriggerAmountOut: pick(), MakerTraits: pick(), Referrer: pick(), ReferralFeePpm: rng.Uint32()}
		r.FilledAmountIn, r.FilledAmountOut, r.Executions = pick(), pick(), rng.IntN(1000)-10
		r.Reason, r.RevertName, r.AccountID, r.Stalled = pick(), pick(), pick(), rng.IntN(2) == 0
		if rng.IntN(2) == 0 {
			r.DCA = &DCAParams{IntervalSeconds: rng.Uint32(), TotalExecutions: uint16(rng.Uint32()), TotalAmountIn: pick(),
				FlexibilityPpm: rng.Uint32(), ShortCircuit: rng.IntN(2) == 0, PriceGated: rng.IntN(2) == 0}
		}
		if rng.IntN(2) == 0 {
			r.Trailing = &TrailingParams{TrailPpm: rng.Uint32()}
			if rng.IntN(2) == 0 {
				k := pick()
				r.Trailing.DesignatedKeeper = &k
			}
		}
		r.CreatedAt = time.Unix(rng.Int64N(4_000_000_000), rng.Int64N(1e9)).UTC()
		r.UpdatedAt = r.CreatedAt.In(zone)
		if rng.IntN(2) == 0 {
			at := time.Unix(rng.Int64N(4_000_000_000), 0).UTC()
			r.TriggeredAt = &at
		}
		want, werr := json.Marshal(r)
		got, gerr := appendOrderJSON(nil, r)
		if werr != nil || gerr != nil || !bytes.Equal(got, want) {
			t.Fatalf("record %d:\n got %s (%v)\nwant %s (%v)", i, got, gerr, want, werr)
		}
	}
	// A time encoding/json refuses is refused here too.
	r := testRecord(0, StatusPending)
	r.CreatedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := appendOrderJSON(nil, r); err == nil {
		t.Fatal("year 10000 encoded")
	}
}
