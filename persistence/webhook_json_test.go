package persistence

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestDeliveryJSONMatchesMarshal checks that the delivery rows written by
// appendJSON are byte for byte what encoding/json writes (the on-disk
// format), for the shapes a delivery takes.
func TestDeliveryJSONMatchesMarshal(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 4, 5, 123456789, time.UTC)
	paris := time.FixedZone("CET", 3600)
	cases := []*WebhookDelivery{
		{},
		{EndpointID: "wh_1", EventID: "evt_1", Trigger: TriggerOrderFilled, Body: []byte(`{"id":"evt_1"}`), CreatedAt: at, Status: DeliveryPending, NextAttemptAt: at},
		{EndpointID: "wh_1", EventID: "evt_2", Trigger: TriggerTestPing, Body: []byte{}, CreatedAt: at.In(paris), Status: DeliveryDelivered,
			Attempts: []WebhookAttempt{{N: 1, At: at, StatusCode: 204, LatencyMs: 3}}},
		{EndpointID: "wh_<&>", EventID: "evt_\"q\"", Trigger: "a\\b", Body: []byte{0, 1, 2, 0xff, '<'}, CreatedAt: at.Truncate(time.Second), Status: DeliveryFailed,
			Attempts: []WebhookAttempt{
				{N: 1, At: at, LatencyMs: 10000, Error: "timeout"},
				{N: 2, At: at.Add(time.Minute), StatusCode: 500, LatencyMs: 0, Error: "HTTP 500"},
				{N: 3, At: at.Add(time.Hour), Error: "dial tcp 10.0.0.1:443: connect: \"refused\" <x> & \u2028 é \x00 \xff"},
			}},
		{EndpointID: "wh_y", CreatedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for i, d := range cases {
		want, wantErr := json.Marshal(d)
		got, err := d.appendJSON([]byte("prefix"))
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("case %d: error %v, encoding/json %v", i, err, wantErr)
		}
		if err != nil {
			continue
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Fatalf("case %d:\n got %s\nwant prefix%s", i, got, want)
		}
		var back WebhookDelivery
		if err := json.Unmarshal(got[len("prefix"):], &back); err != nil {
			t.Fatalf("case %d: decode: %v", i, err)
		}
	}
}

// TestOutboxEventJSONMatchesMarshal checks OutboxEvent.AppendJSON (outbox
// rows and delivery bodies) against encoding/json byte for byte.
func TestOutboxEventJSONMatchesMarshal(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 4, 5, 120000000, time.UTC)
	cases := []OutboxEvent{
		{},
		{ID: "evt_1", Trigger: TriggerTestPing, CreatedAt: at, Data: EventData{Message: "test delivery <&> \"q\" é \u2028"}},
		{ID: "evt_2", Trigger: TriggerOrderFilled, CreatedAt: at.In(time.FixedZone("X", -7200)), Data: EventData{
			OrderType: "limit", Pair: "0xa-0xb", TokenIn: "0xa", TokenOut: "0xb", AmountIn: "1", AmountOut: "2",
			TxHash: "0xc", OrderHash: "0xd", Reason: "r", RevertName: "BadSignature", Executions: "3",
			TotalExecutions: "4", TriggerPrice: "5", Message: "m"}},
		{ID: "evt_3", Trigger: TriggerDCAStalled, CreatedAt: at, Data: EventData{Executions: "1", TotalExecutions: "10"}},
		{ID: "evt_4", CreatedAt: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for i := range cases {
		want, wantErr := json.Marshal(cases[i])
		got, err := cases[i].AppendJSON(nil)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("case %d: error %v, encoding/json %v", i, err, wantErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
