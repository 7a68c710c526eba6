package config

import (
	"errors"
	"fmt"
	"time"
)

// BucketLimits is the number of requests per window in each rate-limit
// bucket of specification section 8.
type BucketLimits struct {
	Quote int `json:"quote"`
	Read  int `json:"read"`
	Order int `json:"order"`
}

// Tier is an account's rate-limit tier (specification section 5.6).
type Tier string

// The account tiers. Builder is five times free; enterprise limits are set
// per account.
const (
	TierFree       Tier = "free"
	TierBuilder    Tier = "builder"
	TierEnterprise Tier = "enterprise"
)

// Valid reports whether t is one of the known tiers.
func (t Tier) Valid() bool {
	return t == TierFree || t == TierBuilder || t == TierEnterprise
}

// LimitsConfig holds the rate limits of contract.md section 5.
type LimitsConfig struct {
	// Window is the sliding window of every bucket. Default one minute.
	Window time.Duration `json:"window"`
	// Free and Builder are the tier limits; builder is 5 × free. Enterprise
	// limits are set per account.
	Free    BucketLimits `json:"free"`
	Builder BucketLimits `json:"builder"`
	// LimiterIdle stops a key's limiter actor after this long without a
	// request. Default 2 m.
	LimiterIdle time.Duration `json:"limiterIdle"`
	// MakerSubmits orders per maker per MakerWindow. Default 10 per 10 s.
	MakerSubmits int           `json:"makerSubmits"`
	MakerWindow  time.Duration `json:"makerWindow"`
	// MakerOpenOrders caps the open orders of one maker. Default 1000.
	MakerOpenOrders int `json:"makerOpenOrders"`
}

func defaultLimits() LimitsConfig {
	free := BucketLimits{Quote: 120, Read: 600, Order: 30}
	return LimitsConfig{
		Window:          time.Minute,
		Free:            free,
		Builder:         BucketLimits{Quote: 5 * free.Quote, Read: 5 * free.Read, Order: 5 * free.Order},
		LimiterIdle:     2 * time.Minute,
		MakerSubmits:    10,
		MakerWindow:     10 * time.Second,
		MakerOpenOrders: 1000,
	}
}

// ForTier returns the bucket limits of tier. Enterprise accounts carry their
// own limits (enterprise); a zero bucket in them falls back to the builder
// value so a half-filled contract never locks a customer out.
func (l LimitsConfig) ForTier(tier Tier, enterprise BucketLimits) BucketLimits {
	switch tier {
	case TierBuilder:
		return l.Builder
	case TierEnterprise:
		out := enterprise
		if out.Quote <= 0 {
			out.Quote = l.Builder.Quote
		}
		if out.Read <= 0 {
			out.Read = l.Builder.Read
		}
		if out.Order <= 0 {
			out.Order = l.Builder.Order
		}
		return out
	default:
		return l.Free
	}
}

func (l LimitsConfig) validate() error {
	var errs []error
	if l.Window < time.Second {
		errs = append(errs, fmt.Errorf("limits.window must be at least 1s, got %s", l.Window))
	}
	for _, tier := range []struct {
		name string
		b    BucketLimits
	}{{"free", l.Free}, {"builder", l.Builder}} {
		for _, bucket := range []struct {
			name string
			n    int
		}{{"quote", tier.b.Quote}, {"read", tier.b.Read}, {"order", tier.b.Order}} {
			if bucket.n <= 0 {
				errs = append(errs, fmt.Errorf("limits.%s.%s must be positive, got %d", tier.name, bucket.name, bucket.n))
			}
		}
	}
	for _, d := range []namedDuration{{"limits.limiterIdle", l.LimiterIdle}, {"limits.makerWindow", l.MakerWindow}} {
		if d.d <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %s", d.path, d.d))
		}
	}
	if l.MakerSubmits <= 0 {
		errs = append(errs, fmt.Errorf("limits.makerSubmits must be positive, got %d", l.MakerSubmits))
	}
	if l.MakerOpenOrders <= 0 {
		errs = append(errs, fmt.Errorf("limits.makerOpenOrders must be positive, got %d", l.MakerOpenOrders))
	}
	return errors.Join(errs...)
}
