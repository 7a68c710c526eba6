package config

import (
	"errors"
	"fmt"
	"net/netip"
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
	// IdleConnTimeout closes a connection to a receiver once it has carried
	// no request for this long. Default 3 s: below the 5 s keep-alive
	// timeout of Node's http server (Express and most Node frameworks), so
	// the sender closes an idle connection before such a receiver does. A
	// receiver that closes sooner costs nothing either: a request that
	// fails on a reused connection before any answer is sent again at once
	// on a new one (docs/webhooks.md, "Connections").
	IdleConnTimeout time.Duration `json:"idleConnTimeout"`
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
	// AllowTargets lists address ranges (CIDRs, or single addresses) that
	// webhook targets may resolve to although they are private or
	// loopback: receivers on the operator's own network. A target whose
	// every address is in the list is accepted over plain http too, so
	// its events and signatures cross that network unencrypted
	// (docs/webhooks.md, Security). Checked at registration and again at
	// every dial. Link-local ranges (169.254.0.0/16 with the cloud
	// metadata address, fe80::/10), the IPv6 metadata address
	// fd00:ec2::254, unspecified and multicast addresses can never be
	// listed. Default empty.
	AllowTargets []string `json:"allowTargets"`
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
		IdleConnTimeout:   3 * time.Second,
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
	if w.IdleConnTimeout <= 0 {
		errs = append(errs, errors.New("webhooks.idleConnTimeout must be positive"))
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
	if _, err := w.AllowedTargets(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// NeverAllowedTargets are the ranges no webhooks.allowTargets entry may
// overlap: link-local (the cloud metadata service, 169.254.169.254 and
// fe80::), AWS's IPv6 metadata address, unspecified (0.0.0.0 dials the
// host itself) and multicast.
var NeverAllowedTargets = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("fd00:ec2::254/128"),
	netip.MustParsePrefix("ff00::/8"),
}

// AllowedTargets parses AllowTargets: each entry a CIDR ("10.1.0.0/16")
// or a single address ("127.0.0.1"), IPv4-mapped IPv6 forms unmapped. An
// entry that does not parse, has host bits set, or overlaps
// NeverAllowedTargets is an error naming it.
func (w WebhooksConfig) AllowedTargets() ([]netip.Prefix, error) {
	var out []netip.Prefix
	var errs []error
	for i, s := range w.AllowTargets {
		p, err := parseTarget(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("webhooks.allowTargets[%d] %q: %w", i, s, err))
			continue
		}
		out = append(out, p)
	}
	return out, errors.Join(errs...)
}

func parseTarget(s string) (netip.Prefix, error) {
	var p netip.Prefix
	if a, err := netip.ParseAddr(s); err == nil {
		if a.Zone() != "" {
			return p, errors.New("a scoped (zoned) address cannot be listed")
		}
		a = a.Unmap()
		p = netip.PrefixFrom(a, a.BitLen())
	} else if p, err = netip.ParsePrefix(s); err != nil {
		return p, errors.New("not a CIDR (like 10.1.0.0/16) or an address")
	}
	if p.Addr().Is4In6() {
		if p.Bits() < 96 {
			return p, errors.New("an IPv4-mapped range must be at least /96")
		}
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	if p.Masked() != p {
		return p, fmt.Errorf("host bits set: write %s", p.Masked())
	}
	for _, n := range NeverAllowedTargets {
		if p.Overlaps(n) {
			return p, fmt.Errorf("overlaps %s, which webhooks may never reach (link-local and cloud metadata, unspecified, multicast)", n)
		}
	}
	return p, nil
}
