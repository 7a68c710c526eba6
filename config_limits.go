package orderengine

import "time"

// BucketLimits is the number of requests per window in each rate-limit
// bucket of specification section 8.
type BucketLimits struct {
	Quote int `json:"quote"`
	Read  int `json:"read"`
	Order int `json:"order"`
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
	// request. Default two windows.
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
