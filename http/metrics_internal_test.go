package http

import (
	"testing"
	"time"

	"github.com/orderengine/orderengine"
)

// Counting a request and an error answer allocates nothing once their
// series exist: both run on every request (the error count on every 401
// and 429 too).
func TestMetricsObserveDoNotAllocate(t *testing.T) {
	m := newMetrics()
	m.observe("/v1/orders", "POST", 400, time.Millisecond)
	m.refused("/v1/orders", "POST", orderengine.CodeInvalidOrder)
	if n := testing.AllocsPerRun(100, func() {
		m.observe("/v1/orders", "POST", 400, time.Millisecond)
		m.refused("/v1/orders", "POST", orderengine.CodeInvalidOrder)
	}); n != 0 {
		t.Fatalf("%v allocations per request", n)
	}
}
