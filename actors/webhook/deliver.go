package webhook

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/persistence"
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

// encodeBody returns the delivery body {id, trigger, createdAt, data}: the
// event's own JSON, createdAt in RFC 3339 (UTC).
func encodeBody(ev *persistence.OutboxEvent) ([]byte, error) {
	e := *ev
	e.CreatedAt = e.CreatedAt.UTC()
	b, err := e.AppendJSON(make([]byte, 0, 512))
	if err != nil {
		return nil, fmt.Errorf("webhook: encode body: %w", err)
	}
	return b, nil
}

// newDelivery returns the outstanding delivery of ev to endpointID, due now.
func newDelivery(endpointID string, ev *persistence.OutboxEvent, body []byte, now time.Time) *persistence.WebhookDelivery {
	return &persistence.WebhookDelivery{
		EndpointID:    endpointID,
		EventID:       ev.ID,
		Trigger:       ev.Trigger,
		Body:          body,
		CreatedAt:     now,
		Status:        persistence.DeliveryPending,
		NextAttemptAt: now,
	}
}

// attempt makes one attempt of d and hands its outcome to the outcome
// writer, which persists it and reports it to the endpoint actor self. It
// runs in its own goroutine, the request included (no second goroutine per
// attempt). Close does not wait for a request in flight: when the manager
// closed meanwhile, the outcome is dropped and the delivery, still
// outstanding on disk, is retried after the next start.
func (m *Manager) attempt(self *actor.PID, guard *endpoint, client *sender, url, secret string, d *persistence.WebhookDelivery) {
	at := m.clock.Now().UTC()
	start := time.Now()
	code, retryAfter, err := client.post(url, secret, d, at)
	latency := time.Since(start)
	m.closeMu.RLock()
	defer m.closeMu.RUnlock()
	if m.closed.Load() {
		return
	}
	m.attempts.Add(1) // done by the outcome writer; Close waits for it
	n := len(d.Attempts) + 1
	att := persistence.WebhookAttempt{N: n, At: at, StatusCode: code, LatencyMs: latency.Milliseconds()}
	ok := err == nil && code >= 200 && code < 300
	switch {
	case err != nil:
		att.Error = failureText(err, m.policy.Dev)
		if m.policy.Dev {
			// How long a failure took tells a closed port from a
			// filtered one (failureText): not shown in dev mode.
			att.LatencyMs = 0
		}
		m.logFailure(d.EndpointID, err)
	case !ok:
		att.Error = "HTTP " + strconv.Itoa(code)
	}
	d.Attempts = append(d.Attempts, att)
	switch {
	case ok:
		d.Status, d.NextAttemptAt = persistence.DeliveryDelivered, time.Time{}
	case n > len(m.cfg.Retry):
		d.Status, d.NextAttemptAt = persistence.DeliveryFailed, time.Time{}
	default:
		d.NextAttemptAt = at.Add(m.retryDelay(n-1, retryAfter))
	}
	m.stats.record(n, ok, d.Status == persistence.DeliveryFailed, latencyOf(d, ok, m.clock.Now()))
	// The outcome writer persists it, reports it to the actor and marks
	// the attempt done.
	m.outcomes.add(outcome{self: self, guard: guard, msg: &attemptDone{d: d, ok: ok, at: at}})
}

// latencyOf is the enqueue-to-delivery time of a successful delivery.
func latencyOf(d *persistence.WebhookDelivery, ok bool, now time.Time) time.Duration {
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
