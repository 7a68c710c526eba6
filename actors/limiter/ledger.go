package limiter

import "time"

// ledgerSlotsPerWindow cuts a window into the ledger's slots: with the
// default one-minute window a slot is 500 ms, and a lease lives one to two
// slots (0.5 to 1 s).
const ledgerSlotsPerWindow = 120

// ledgerSpan is the number of slots a ledger counts: the window's and two
// more, one for the slot in progress and one for the lease lifetime.
const ledgerSpan = ledgerSlotsPerWindow + 2

// ledger is the owner's count of one bucket of one subject in a cluster:
// the tokens it handed out, to its own requests one at a time and to the
// other members as leases, in slots of q = ceil(window / 120).
//
// The bound. A token granted in slot s may be used until the end of slot
// s+1 (a lease's expiry; the member holding it measures the lifetime from
// the moment it asked, so clock offsets between members do not matter).
// At a grant in slot t the ledger counts slots t-121 … t, which hold every
// grant whose tokens could still be used less than a window before now:
// their expiry is after now - window. So the admissions of any window-long
// interval, wherever they were made, all come from grants that one grant
// (the last of them) counted together, and never exceed the limit.
//
// The price is in the safe direction: the counted span is between
// window + q and window + 2q long, so a greedy client gets at most 2q/window
// (1.7 %) less than an exact limiter, plus any tokens stranded in leases
// (lease.go).
type ledger struct {
	slots  [ledgerSpan]uint32
	head   int64 // absolute index of the newest slot advanced to
	oldest int64 // lower bound of the oldest non-empty slot
	total  int64
}

// ledgerSlot returns q for window.
func ledgerSlot(window time.Duration) int64 {
	q := (int64(window) + ledgerSlotsPerWindow - 1) / ledgerSlotsPerWindow
	return max(q, int64(time.Millisecond))
}

// advance moves the head to slot s, dropping the slots that left.
func (lg *ledger) advance(s int64) {
	if s <= lg.head {
		return
	}
	if s-lg.head >= ledgerSpan || lg.total == 0 {
		if lg.total != 0 {
			lg.slots = [ledgerSpan]uint32{}
			lg.total = 0
		}
		lg.head, lg.oldest = s, s
		return
	}
	for i := lg.head + 1; i <= s; i++ {
		idx := i % ledgerSpan
		lg.total -= int64(lg.slots[idx])
		lg.slots[idx] = 0
	}
	lg.head = s
}

// grant hands out up to want tokens at time now (unix nanoseconds) within
// limit. It returns the tokens granted, the slot they were counted in, how
// long they may be used, and the owner's remaining tokens and reset.
func (lg *ledger) grant(now, q int64, want, limit int) leaseGrant {
	s := now / q
	lg.advance(s)
	s = lg.head
	g := leaseGrant{Slot: s}
	if avail := int64(limit) - lg.total; avail > 0 && want > 0 {
		n := min(int64(want), avail)
		if lg.total == 0 {
			lg.oldest = s
		}
		lg.slots[s%ledgerSpan] += uint32(n)
		lg.total += n
		g.Granted = int(n)
	}
	g.Valid = time.Duration(max(0, (s+2)*q-now))
	g.Remaining = max(0, limit-int(lg.total))
	g.Reset = lg.reset(now, q)
	return g
}

// reset is how long until the oldest counted token leaves the ledger
// (zero when none is counted). The search for the oldest slot starts at
// the last one found: O(1) amortised.
func (lg *ledger) reset(now, q int64) time.Duration {
	if lg.total == 0 {
		return 0
	}
	if low := lg.head - ledgerSpan + 1; lg.oldest < low {
		lg.oldest = low
	}
	for lg.oldest < lg.head && lg.slots[lg.oldest%ledgerSpan] == 0 {
		lg.oldest++
	}
	return time.Duration((lg.oldest+ledgerSpan)*q - now)
}

// giveBack uncounts n tokens of a lease granted in slot that its holder
// did not use and will not use (the lease expired). A slot that has left
// the ledger is gone already.
func (lg *ledger) giveBack(now, q, slot int64, n int) {
	lg.advance(now / q)
	if n <= 0 || slot > lg.head || slot <= lg.head-ledgerSpan {
		return
	}
	idx := slot % ledgerSpan
	back := min(int64(n), int64(lg.slots[idx]))
	lg.slots[idx] -= uint32(back)
	lg.total -= back
}

// leaseGrant is the owner's answer to a lease request.
type leaseGrant struct {
	// Granted tokens, counted in Slot, usable for Valid from the request.
	Granted int
	Slot    int64
	Valid   time.Duration
	// Remaining and Reset are the owner's, after the grant (the headers of
	// the requests admitted from the lease).
	Remaining int
	Reset     time.Duration
}
