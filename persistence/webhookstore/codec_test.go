package webhookstore

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/orderengine/orderengine/persistence"
)

// TestDeliveryCodecRoundTrip: every shape a delivery takes decodes to what
// was encoded, its version is its number of attempts, and a truncated or
// extended value is refused.
func TestDeliveryCodecRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 4, 5, 123456789, time.UTC)
	cases := []*Delivery{
		{EndpointID: "wh_1", EventID: "evt_1", Trigger: persistence.TriggerOrderFilled, CreatedAt: at, Status: DeliveryPending, NextAttemptAt: at},
		{EndpointID: "wh_1", EventID: "evt_2", Trigger: persistence.TriggerTestPing, CreatedAt: at, Status: DeliveryDelivered,
			Attempts: []Attempt{{N: 1, At: at, StatusCode: 204, LatencyMs: 3}}},
		{EndpointID: "wh_<&>", EventID: "evt_\"q\"", Trigger: "a\\b", CreatedAt: at.Truncate(time.Second), Status: DeliveryFailed,
			Attempts: []Attempt{
				{N: 1, At: at, LatencyMs: 10000, Error: "timeout"},
				{N: 2, At: at.Add(time.Minute), StatusCode: 500, Error: "HTTP 500"},
				{N: 3, At: at.Add(time.Hour), LatencyMs: -1, Error: "dial tcp 10.0.0.1:443: connect: \"refused\" é \x00 \xff"},
			}},
		{EndpointID: "wh_y", EventID: "evt_y", CreatedAt: time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC), Status: DeliveryPending,
			NextAttemptAt: time.Date(1970, 1, 1, 0, 0, 0, 1, time.UTC)},
	}
	for i, d := range cases {
		v, err := appendDelivery([]byte("prefix"), d)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		v = v[len("prefix"):]
		var got Delivery
		if err := decodeDelivery(v, &got); err != nil {
			t.Fatalf("case %d: decode: %v", i, err)
		}
		if !reflect.DeepEqual(&got, d) {
			t.Fatalf("case %d:\n got %+v\nwant %+v", i, got, *d)
		}
		if n, err := deliveryVersion(v); err != nil || n != uint64(len(d.Attempts)) {
			t.Fatalf("case %d: version %d %v, want %d", i, n, err, len(d.Attempts))
		}
		for _, bad := range [][]byte{v[:len(v)-1], append(append([]byte(nil), v...), 0), append([]byte{9}, v[1:]...)} {
			if err := decodeDelivery(bad, &got); !errors.Is(err, errCorruptDelivery) {
				t.Fatalf("case %d: corrupt value %x decoded: %v", i, bad, err)
			}
		}
	}
	if _, err := appendDelivery(nil, &Delivery{Status: "lost"}); err == nil {
		t.Fatal("an unknown status was encoded")
	}
}
