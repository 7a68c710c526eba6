package limiter

import "time"

// slotsPerWindow is the number of slots a window is divided into. With the
// default one-minute window a slot is 100 ms.
const slotsPerWindow = 600

// ring counts requests of one bucket in a sliding window.
//
// The window is cut into slotsPerWindow slots of d = window/slotsPerWindow.
// A request is counted in the slot of its arrival time. At time t the
// counted requests are those of the current slot and the slotsPerWindow
// slots before it: a span between window and window+d long, never shorter.
//
// Accuracy: because the counted span is never shorter than the window, a
// client can never be admitted more than the limit in any window-long
// interval (exactness in the safe direction). Because it is at most d longer,
// a request is refused at most d (0.17 % of the window, 100 ms of 60 s)
// before an exact sliding log would have admitted it: a client pacing at
// exactly the limit loses at most 0.17 % of its budget, inside the required
// 1 %. Unlike an exact log of timestamps the memory is fixed (601 counters
// per bucket) whatever the limit, so enterprise limits of any size cost the
// same.
//
// The total is kept incrementally: advancing clears the slots that left the
// window, so a Take is O(1) amortised.
type ring struct {
	slots  [slotsPerWindow + 1]uint32
	head   int64 // absolute index of the newest slot advanced to
	oldest int64 // lower bound of the oldest non-empty slot
	total  int64
}

// advance moves the ring's head to absolute slot s, dropping what left.
func (r *ring) advance(s int64) {
	if s <= r.head {
		return // a clock that went backwards counts into the newest slot
	}
	n := int64(len(r.slots))
	if s-r.head >= n || r.total == 0 {
		if r.total != 0 {
			r.slots = [slotsPerWindow + 1]uint32{}
			r.total = 0
		}
		r.head, r.oldest = s, s
		return
	}
	for i := r.head + 1; i <= s; i++ {
		idx := i % n
		r.total -= int64(r.slots[idx])
		r.slots[idx] = 0
	}
	r.head = s
}

// oldestSlot returns the oldest non-empty slot in the window; total > 0.
func (r *ring) oldestSlot() int64 {
	n := int64(len(r.slots))
	if low := r.head - slotsPerWindow; r.oldest < low {
		r.oldest = low
	}
	for r.oldest < r.head && r.slots[r.oldest%n] == 0 {
		r.oldest++
	}
	return r.oldest
}

// Decision is the outcome of one Take, with what the rate-limit headers
// need.
type Decision struct {
	// Allowed is false when the bucket is full; the request was not counted.
	Allowed bool
	// Limit is the bucket's limit per window.
	Limit int
	// Remaining is what the window still admits after this request.
	Remaining int
	// Reset is how long until the oldest counted request leaves the window
	// and frees capacity; zero when nothing is counted.
	Reset time.Duration
}

// ResetSeconds is Reset rounded up to whole seconds.
func (d Decision) ResetSeconds() int { return ceilSeconds(d.Reset) }

// RetryAfterSeconds is the Retry-After of a refused request: whole seconds,
// at least 1.
func (d Decision) RetryAfterSeconds() int { return max(1, ceilSeconds(d.Reset)) }

func ceilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// take counts one request at time now (unix nanoseconds) against limit.
func (r *ring) take(now int64, slot time.Duration, limit int) Decision {
	s := now / int64(slot)
	r.advance(s)
	s = r.head
	d := Decision{Limit: limit}
	if r.total < int64(limit) {
		if r.total == 0 {
			r.oldest = s
		}
		r.slots[s%int64(len(r.slots))]++
		r.total++
		d.Allowed = true
	}
	d.Remaining = max(0, limit-int(r.total))
	if r.total > 0 {
		o := r.oldestSlot()
		d.Reset = time.Duration((o+slotsPerWindow+1)*int64(slot) - now)
	}
	return d
}
