//go:build !linux

package chain

import "time"

// threadCPU is unavailable off Linux; the benchmarks then report wall time only.
func threadCPU() (time.Duration, bool) { return 0, false }
