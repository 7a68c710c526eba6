package main

import (
	"context"
	"testing"
)

// BenchmarkWebhookDeliveries delivers b.N signed events through 100
// endpoints to a local receiver that answers at once, and reports
// deliveries/s, the enqueue-to-delivery p99 and the process CPU per
// delivery (engine and receiver).
func BenchmarkWebhookDeliveries(b *testing.B) {
	r, err := webhookLoad(context.Background(), webhookFlags{endpoints: 100, events: max(b.N, 100), producers: 64})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(r.delivered)/r.elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(float64(r.p99.Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(r.cpu.Nanoseconds())/float64(r.delivered), "cpu-ns/delivery")
}

// TestWebhooksModeDelivers runs the mode briefly: every event arrives once,
// signed, and the numbers are produced.
func TestWebhooksModeDelivers(t *testing.T) {
	r, err := webhookLoad(context.Background(), webhookFlags{endpoints: 10, events: 500, producers: 8})
	if err != nil {
		t.Fatal(err)
	}
	if r.delivered != 500 || r.p99 <= 0 || r.cpu <= 0 {
		t.Fatalf("result %+v", r)
	}
}
