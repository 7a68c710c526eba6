package config

import (
	"errors"
	"fmt"
	"time"
)

// WebhooksConfig configures webhook endpoints and delivery (specification
// section 6, contract.md section 7). Zero values are replaced by the
// defaults named on each field only where stated; LoadConfig starts from
// Default, so a file or flag overrides single fields.
type WebhooksConfig struct {
	// Retry is the delay before each retry after a failed attempt. Default
	// 5s, 5m, 30m, 2h, 5h, 10h, 10h (about a day): a delivery gets
	// len(Retry)+1 attempts.
	Retry []time.Duration `json:"retry"`
	// JitterPpm spreads each retry delay uniformly by ± this many ppm.
	// Default 200000 (±20 %).
	JitterPpm int `json:"jitterPpm"`
	// Timeout is the time a receiver has to answer 2xx. Default 10 s.
	Timeout time.Duration `json:"timeout"`
	// DisableAfter disables an endpoint whose attempts have all failed for
	// this long with no success in between. Default 24 h.
	DisableAfter time.Duration `json:"disableAfter"`
	// MaxEndpoints per account. Default 3.
	MaxEndpoints int `json:"maxEndpoints"`
	// Concurrency is the number of attempts in flight per endpoint. Default 8.
	Concurrency int `json:"concurrency"`
	// History is the number of finished deliveries kept per endpoint for
	// GET /v1/webhooks/{id}/deliveries. Default 100.
	History int `json:"history"`
	// AllowLoopbackHTTP allows loopback targets (127.0.0.0/8, ::1), over
	// plain http too, when the engine runs in dev mode; private,
	// link-local and other internal addresses stay refused. Default true;
	// it has no effect outside dev mode.
	AllowLoopbackHTTP bool `json:"allowLoopbackHTTP"`
	// SecretKeyFile holds the 32-byte key that encrypts signing secrets at
	// rest (AES-256-GCM). Empty means "<dataDir>/webhook-secrets.key",
	// created on first start with mode 0600; in a cluster, empty means one
	// key kept with the cluster's replicated account data, and a file set
	// here must hold the same key on every node (docs/cluster.md).
	SecretKeyFile string `json:"secretKeyFile"`
}

func defaultWebhooks() WebhooksConfig {
	return WebhooksConfig{
		Retry: []time.Duration{
			5 * time.Second, 5 * time.Minute, 30 * time.Minute,
			2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour,
		},
		JitterPpm:         200_000,
		Timeout:           10 * time.Second,
		DisableAfter:      24 * time.Hour,
		MaxEndpoints:      3,
		Concurrency:       8,
		History:           100,
		AllowLoopbackHTTP: true,
	}
}

// Validate checks the webhook section.
func (w WebhooksConfig) Validate() error {
	var errs []error
	if len(w.Retry) == 0 {
		errs = append(errs, errors.New("webhooks.retry must list at least one delay"))
	}
	for i, d := range w.Retry {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("webhooks.retry[%d] must be positive", i))
		}
	}
	if w.JitterPpm < 0 || w.JitterPpm >= 1_000_000 {
		errs = append(errs, errors.New("webhooks.jitterPpm must be in [0, 1000000)"))
	}
	if w.Timeout <= 0 {
		errs = append(errs, errors.New("webhooks.timeout must be positive"))
	}
	if w.DisableAfter <= 0 {
		errs = append(errs, errors.New("webhooks.disableAfter must be positive"))
	}
	if w.MaxEndpoints < 1 {
		errs = append(errs, errors.New("webhooks.maxEndpoints must be at least 1"))
	}
	if w.Concurrency < 1 {
		errs = append(errs, errors.New("webhooks.concurrency must be at least 1"))
	}
	if w.History < 1 {
		errs = append(errs, errors.New("webhooks.history must be at least 1"))
	}
	return errors.Join(errs...)
}
