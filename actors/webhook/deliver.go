package webhook

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// Delivery headers (specification section 6).
const (
	HeaderEvent     = "X-Service-Event"
	HeaderDelivery  = "X-Service-Delivery"
	HeaderSignature = "X-Service-Signature"
)

// maxResponseRead is the largest receiver answer body read (and dropped);
// a larger one closes the connection, the status still counts.
const maxResponseRead = 1 << 20

// attempt makes one attempt of the delivery of eventID and reports it to
// the endpoint actor self, which writes its outcome. It runs in its own
// goroutine, the request included. body is the event's body, or nil to
// read it from the store. A single node's Close waits for its report to
// be taken (a bounded wait, Manager.drain); when the manager closed
// meanwhile, the report is dropped and the delivery, still outstanding on
// disk, is attempted again after the next start (or by the member that
// takes the endpoint over).
func (m *Manager) attempt(self *actor.PID, flying *atomic.Int64, client *sender, account, url string, secrets signers, eventID, trigger string, body []byte) {
	if m.closed.Load() {
		flying.Add(-1)
		return
	}
	r := &attemptDone{eventID: eventID}
	if body == nil {
		var ok bool
		body, ok, r.skipped = m.journal.EventBody(account, eventID)
		r.noBody = r.skipped == nil && !ok
		if r.noBody {
			r.skipped = errors.New("the event's body is not stored")
		}
	}
	r.at = m.clock.Now().UTC()
	if r.skipped == nil {
		start := time.Now()
		r.code, r.retryAfter, r.err = client.post(url, secrets, eventID, trigger, body, r.at)
		r.latency = time.Since(start)
	}
	if m.closed.Load() {
		flying.Add(-1)
		return
	}
	m.system.Root.Send(self, r)
}

// outcomeOf returns d after the attempt r (a new value: d is the version
// the actor holds until the outcome is written) and whether it succeeded,
// and counts the attempt. A delivery whose body is missing is given up
// without counting an attempt.
func (m *Manager) outcomeOf(d *webhookstore.Delivery, r *attemptDone) (*webhookstore.Delivery, bool) {
	n := len(d.Attempts) + 1
	att := webhookstore.Attempt{N: n, At: r.at, StatusCode: r.code, LatencyMs: r.latency.Milliseconds()}
	ok := r.skipped == nil && r.err == nil && r.code >= 200 && r.code < 300
	switch {
	case r.skipped != nil:
		att.Error = r.skipped.Error()
	case r.err != nil:
		att.Error = failureText(r.err, m.policy.opaque())
		if m.policy.opaque() {
			// How long a failure took tells a closed port from a
			// filtered one (failureText): not shown in dev mode.
			att.LatencyMs = 0
		}
		m.logFailure(d.EndpointID, r.err)
	case !ok:
		att.Error = "HTTP " + strconv.Itoa(r.code)
	}
	next := *d
	next.Attempts = append(slices.Clip(d.Attempts), att)
	switch {
	case ok:
		next.Status, next.NextAttemptAt = webhookstore.DeliveryDelivered, time.Time{}
	case r.noBody || n > len(m.cfg.Retry):
		next.Status, next.NextAttemptAt = webhookstore.DeliveryFailed, time.Time{}
	default:
		next.NextAttemptAt = r.at.Add(m.retryDelay(n-1, r.retryAfter))
	}
	if r.noBody {
		m.log.Error("webhook: a delivery's event body is not stored; given up", "endpoint", d.EndpointID, "event", d.EventID)
	} else {
		m.stats.record(n, ok, next.Status == webhookstore.DeliveryFailed, latencyOf(&next, ok, m.clock.Now()))
	}
	return &next, ok
}

// latencyOf is the enqueue-to-delivery time of a successful delivery.
func latencyOf(d *webhookstore.Delivery, ok bool, now time.Time) time.Duration {
	if !ok {
		return -1
	}
	return now.Sub(d.CreatedAt)
}

// retryDelay is the delay before the retry that follows failed attempt
// number i+1: the receiver's Retry-After when given (capped at the longest
// scheduled delay), else the schedule's i-th delay with ± jitter.
func (m *Manager) retryDelay(i int, retryAfter time.Duration) time.Duration {
	longest := m.cfg.Retry[len(m.cfg.Retry)-1]
	for _, d := range m.cfg.Retry {
		longest = max(longest, d)
	}
	if retryAfter > 0 {
		return min(retryAfter, longest)
	}
	base := m.cfg.Retry[min(i, len(m.cfg.Retry)-1)]
	if m.cfg.JitterPpm == 0 {
		return base
	}
	j := float64(m.cfg.JitterPpm) / 1e6
	return time.Duration(float64(base) * (1 - j + 2*j*rand.Float64()))
}

// parseRetryAfter reads a Retry-After value: whole seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, int64(365*24*3600))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// logFailure writes the cause of an attempt that got no HTTP answer to the
// engine's log (the deliveries log shows only its kind, failureText): at
// info level in dev mode, where a developer watches the console, at debug
// level otherwise, where failing receivers could flood the log.
func (m *Manager) logFailure(endpointID string, err error) {
	level := slog.LevelDebug
	if m.policy.Dev {
		level = slog.LevelInfo
	}
	m.log.Log(context.Background(), level, "webhook attempt failed", "endpoint", endpointID, "err", err)
}
