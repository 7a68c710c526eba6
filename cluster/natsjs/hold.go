package natsjs

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// HoldOptions configure Lease.Hold.
type HoldOptions struct {
	// May reports whether this node is fit to hold the lease now (nil:
	// always): a node catching up its streams, or whose chain node does
	// not answer, is not. An unfit node does not take the lease, and a
	// holder unfit for a whole TTL steps down (releases it) so that a fit
	// standby takes over.
	May func() bool
	// Changed is told, in Hold's goroutine, when this node becomes the
	// holder (true) and when it stops being it (false): its renewal was
	// refused, or its term passed without a renewal, or Hold returns.
	Changed func(held bool)
	// Log receives the failed acquires and renewals (nil: discarded).
	Log *slog.Logger
}

// holdTick is how often Hold acts for a lease of ttl: a quarter of the
// TTL, at least 50 ms. The holder renews every third of the TTL, so a
// single failed renewal leaves it two more tries before its term ends.
func holdTick(ttl time.Duration) time.Duration { return max(ttl/4, 50*time.Millisecond) }

// Hold keeps trying to hold the lease until ctx ends: while this node
// does not hold it (and May allows), it tries to acquire it every tick;
// while it holds it, it renews it once a third of the TTL has passed since
// the last acquire or renewal, unless May has reported false for a whole
// TTL: then it releases the lease. A renewal that fails for another reason
// than a lost lease (no quorum, a timeout) is tried again at the next
// tick until the term passes. Hold does not release the lease when it
// returns: the caller releases it (Release) once the duties it guards
// have stopped, so a standby never overlaps with them.
//
// The duties the lease guards should ask Held themselves: it turns false
// the moment the term passes, while Changed(false) comes at Hold's next
// tick.
func (l *Lease) Hold(ctx context.Context, o HoldOptions) {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := time.NewTicker(holdTick(l.ttl))
	defer t.Stop()
	held := false
	var renewed, unfit time.Time
	report := func(now bool) {
		if now != held {
			held = now
			if o.Changed != nil {
				o.Changed(now)
			}
		}
	}
	defer report(false)
	for {
		fit := o.May == nil || o.May()
		if fit || !l.Held() {
			unfit = time.Time{}
		} else if unfit.IsZero() {
			unfit = time.Now()
		}
		switch {
		case !unfit.IsZero() && time.Since(unfit) >= l.ttl:
			log.Warn("this node is unfit to hold the lease: stepping down", "lease", l.name, "for", time.Since(unfit).Round(time.Millisecond))
			if err := l.Release(ctx); err != nil && ctx.Err() == nil {
				log.Warn("lease release failed; its term ends with its TTL", "lease", l.name, "err", err)
			}
			unfit = time.Time{}
		case l.Held():
			if time.Since(renewed) >= l.ttl/3 {
				start := time.Now()
				switch err := l.Renew(ctx); {
				case err == nil:
					renewed = start
				case ctx.Err() != nil:
				case errors.Is(err, ErrLeaseLost):
					log.Warn("lease lost", "lease", l.name, "err", err)
				default:
					log.Warn("lease renewal failed; retrying", "lease", l.name, "err", err)
				}
			}
		case fit:
			start := time.Now()
			ok, err := l.Acquire(ctx)
			switch {
			case ok:
				renewed = start
			case err != nil && ctx.Err() == nil:
				log.Warn("lease acquire failed; retrying", "lease", l.name, "err", err)
			}
		}
		report(l.Held())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
