package persistence

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
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
	for i := range 2000 {
		r := randomRecord(rng, i, oddStrings)
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

// oddStrings need escaping or are not ASCII; plainStrings are what stored
// records hold.
var (
	oddStrings   = []string{"", "plain", `quote " and \ slash`, "<html> & co", "tab\there\nline\x01\x1f", "é ünïcode 中文", "\u2028\u2029", "bad utf8 \xff\xfe", "0x" + "ab12"}
	plainStrings = []string{"", "limit", "pending", "0x1000000000000000000000000000000000000001", "123456789012345678901234567890", "0x" + "ab12"}
)

// randomRecord is a record with every optional part present or not, its
// strings drawn from words, times in other zones.
func randomRecord(rng *rand.Rand, i int, words []string) *OrderRecord {
	pick := func() string { return words[rng.IntN(len(words))] }
	zone := time.FixedZone("odd", -(3*3600 + 30*60))
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
	return r
}

// DecodeOrderRecord gives what encoding/json gives, for every record
// appendOrderJSON writes (plain ones by its own reader, which the test
// checks it takes) and for any corruption of them: same record, or an
// error exactly when encoding/json errs.
func TestDecodeOrderRecordMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(what string, v []byte) {
		t.Helper()
		var got, want OrderRecord
		gerr, werr := DecodeOrderRecord(v, &got), json.Unmarshal(v, &want)
		if (gerr == nil) != (werr == nil) || (werr == nil && !reflect.DeepEqual(got, want)) {
			t.Fatalf("%s %s:\n got %+v (%v)\nwant %+v (%v)", what, v, got, gerr, want, werr)
		}
	}
	for i := range 2000 {
		words := plainStrings
		if i%2 == 1 {
			words = oddStrings
		}
		v, err := appendOrderJSON(nil, randomRecord(rng, i, words))
		if err != nil {
			t.Fatal(err)
		}
		check("record", v)
		if i%2 == 0 {
			var r OrderRecord
			if d := (orderDecoder{b: v}); !d.record(&r) || d.i != len(v) {
				t.Fatalf("plain record %s not read by the layout reader (stopped at %d)", v, d.i)
			}
		}
		// Corruptions: a byte changed, a cut, a span removed or repeated.
		for range 10 {
			m := append([]byte(nil), v...)
			switch j := rng.IntN(len(m)); rng.IntN(4) {
			case 0:
				const alphabet = "0123456789-\"{}:,.nultrfaeZ+ x\\"
				m[j] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				m = m[:j]
			case 2:
				k := min(len(m), j+1+rng.IntN(24))
				m = append(m[:j:j], m[k:]...)
			case 3:
				k := min(len(m), j+1+rng.IntN(24))
				m = append(m[:k:k], m[j:]...)
			}
			check("corrupted", m)
		}
	}
	// Other layouts still decode: fields reordered, unknown, missing.
	check("reordered", []byte(`{"status":"pending","orderHash":"0x01","createdAt":"2026-01-02T03:04:05Z","extra":[1,2]}`))
	check("empty", []byte(`{}`))
}

// BenchmarkDecodeOrderRecord compares the layout reader with encoding/json
// on a stored limit order.
func BenchmarkDecodeOrderRecord(b *testing.B) {
	r := testRecord(1, StatusPending)
	r.Order = SignedOrder{Salt: "0x1234567890abcdef", Maker: "0x1000000000000000000000000000000000000001",
		Receiver: "0x1000000000000000000000000000000000000001", TokenIn: "0x2000000000000000000000000000000000000002",
		TokenOut: "0x3000000000000000000000000000000000000003", AmountIn: "1000000000000000000", TriggerPrice: "3000000000",
		TriggerAmountOut: "3000000000", MakerTraits: "452312848583266388373324160190187140051835877600158453279131187530910662656",
		Referrer: "0x4000000000000000000000000000000000000004", ReferralFeePpm: 1000}
	r.Signature = "0x" + strings.Repeat("ab", 65)
	r.FilledAmountIn, r.FilledAmountOut, r.AccountID = "0", "0", "acc_1234"
	v, err := appendOrderJSON(nil, r)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("layout", func(b *testing.B) {
		for b.Loop() {
			var rec OrderRecord
			if err := DecodeOrderRecord(v, &rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var rec OrderRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				b.Fatal(err)
			}
		}
	})
}
