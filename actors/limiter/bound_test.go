package limiter

import (
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/clock"
)

// mostInWindow returns the most admissions in any window-long interval
// of the sorted times.
func mostInWindow(admitted []time.Time, window time.Duration) int {
	most, j := 0, 0
	for i := range admitted {
		for j < len(admitted) && admitted[j].Sub(admitted[i]) < window {
			j++
		}
		most = max(most, j-i)
	}
	return most
}

// exactAdmissions counts what an exact sliding log admits of requests
// at times: the reference the cluster's admissions are measured against.
func exactAdmissions(times []time.Time, limit int, window time.Duration) int {
	var log []time.Time
	n := 0
	for _, at := range times {
		for len(log) > 0 && at.Sub(log[0]) >= window {
			log = log[1:]
		}
		if len(log) < limit {
			log = append(log, at)
			n++
		}
	}
	return n
}

// statedFloor is the fewest admissions docs/cluster.md promises against
// an exact limiter's exact over a run of windows: per window, the ledger
// costs at most 2q/(window+2q) of the limit (each token is counted for up
// to window + 2q), and the unused tokens the members that do not own the
// key hold in their leases when the limit is reached cost at most
// maxLease each.
func statedFloor(exact, limit, members, windows int, window time.Duration) int {
	q := time.Duration(ledgerSlot(window))
	span := (int64(limit)*int64(2*q) + int64(window+2*q) - 1) / int64(window+2*q)
	return exact - windows*(int(span)+(members-1)*maxLease(limit))
}

// The stated bound, counted: one key's greedy traffic spread round-robin
// over three members is never admitted more than its limit in any
// sliding window, and never less than the stated floor below an exact
// limiter, for a dense client and for one whose members go quiet with a
// lease in hand.
func TestStatedErrorBound(t *testing.T) {
	const window = time.Minute
	for _, tc := range []struct {
		name    string
		members int
		limit   int
		// gap is the time between two requests; quiet, when set, is a
		// member that gets no requests in the second half of each
		// window (its lease is stranded there).
		gap   time.Duration
		quiet int
	}{
		{"dense", 3, 600, 10 * time.Millisecond, -1},
		{"at the limit's rate", 3, 600, window / 600, -1},
		{"at the limit's rate, five members", 5, 600, window / 600, -1},
		{"just over the limit's rate", 3, 600, window / 640, -1},
		{"sparse", 3, 100, 170 * time.Millisecond, -1},
		{"a member goes quiet", 3, 320, 25 * time.Millisecond, 1},
		{"a member goes quiet at the limit's rate", 3, 320, window / 320, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := clock.NewManual(t0)
			_, ls := newClusterLimiters(t, tc.members, clk)
			const key = "key_bound"
			var times, admitted []time.Time
			const windows = 6
			end := t0.Add(windows * window)
			for i := 0; clk.Now().Before(end); i++ {
				member := i % len(ls)
				if member == tc.quiet && clk.Now().Sub(t0)%window >= window/2 {
					member = (member + 1) % len(ls)
				}
				times = append(times, clk.Now())
				if ls[member].Take(key, Read, tc.limit).Allowed {
					admitted = append(admitted, clk.Now())
				}
				clk.Advance(tc.gap)
			}
			if most := mostInWindow(admitted, window); most > tc.limit {
				t.Fatalf("%d admissions in one window across the members, limit %d", most, tc.limit)
			}
			exact := exactAdmissions(times, tc.limit, window)
			floor := statedFloor(exact, tc.limit, len(ls), windows, window)
			if len(admitted) < floor {
				t.Fatalf("admitted %d, an exact limiter admits %d: below the stated floor %d", len(admitted), exact, floor)
			}
			t.Logf("admitted %d of %d requests; exact limiter %d (%.2f %%); stated floor %d",
				len(admitted), len(times), exact, 100*float64(len(admitted))/float64(exact), floor)
		})
	}
}
