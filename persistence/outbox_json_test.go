package persistence

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

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
