package accountstore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Key usage: when each API key last authenticated a request, to the
// minute. The request path never writes: it compares the key's last known
// minute with the current one (two atomic loads) and, at most once a
// minute per key, stores the new minute in memory. FlushKeyUsage writes
// the minutes that moved into the key records (k/…, lastUsedAt) in one
// batch; RunKeyUsage calls it every interval and advances the current
// minute. A crash loses at most the last interval's uses.

// keyUse is the in-memory use of one key.
type keyUse struct {
	minute  atomic.Int64 // unix minute of the last use seen
	flushed int64        // the minute last written (under writeMu)
}

// useOfLocked returns the usage tracker of rec's key, creating it from
// the stored lastUsedAt. a.mu is held for writing.
func (a *Accounts) useOfLocked(rec *KeyRecord) *keyUse {
	if u := a.uses[rec.ID]; u != nil {
		return u
	}
	u := new(keyUse)
	if rec.LastUsedAt != nil {
		u.flushed = rec.LastUsedAt.Unix() / 60
		u.minute.Store(u.flushed)
	}
	a.uses[rec.ID] = u
	return u
}

// touch records a use of rec in the current minute.
func (a *Accounts) touch(rec *KeyRecord) {
	if u := rec.used; u != nil {
		if m := a.minute.Load(); u.minute.Load() < m {
			u.minute.Store(m)
		}
	}
}

// lastUsed is the later of the stored lastUsedAt and the use seen in
// memory.
func (rec *KeyRecord) lastUsed() *time.Time {
	if rec.used == nil {
		return rec.LastUsedAt
	}
	m := rec.used.minute.Load()
	if m == 0 || (rec.LastUsedAt != nil && rec.LastUsedAt.Unix()/60 >= m) {
		return rec.LastUsedAt
	}
	t := time.Unix(m*60, 0).UTC()
	return &t
}

// FlushKeyUsage writes the last-use minute of every key used since the
// previous flush into its record, in one shared write of the account data.
// A record that already holds a later minute (another node's flush, in a
// cluster) keeps it.
func (a *Accounts) FlushKeyUsage() error {
	type moved struct {
		id     string
		u      *keyUse
		minute int64
	}
	var todo []moved
	err := a.update(func() error {
		todo = todo[:0]
		a.mu.RLock()
		for id, u := range a.uses {
			if m := u.minute.Load(); m > u.flushed {
				todo = append(todo, moved{id, u, m})
			}
		}
		a.mu.RUnlock()
		if len(todo) == 0 {
			return nil
		}
		return a.commit(func(b *pebble.Batch) error {
			for _, t := range todo {
				rec, err := a.readKey(t.id)
				if err != nil {
					return err
				}
				at := time.Unix(t.minute*60, 0).UTC()
				if rec.LastUsedAt != nil && !rec.LastUsedAt.Before(at) {
					continue
				}
				rec.LastUsedAt = &at
				if err := setJSON(b, keyRecordKey(rec.ID), rec); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	a.writeMu.Lock()
	for _, t := range todo {
		t.u.flushed = max(t.u.flushed, t.minute)
	}
	a.writeMu.Unlock()
	return nil
}

// RunKeyUsage advances the current minute and flushes the key usage every
// interval until ctx ends, then flushes once more.
func (a *Accounts) RunKeyUsage(ctx context.Context, interval time.Duration, onErr func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := a.FlushKeyUsage(); err != nil && onErr != nil {
				onErr(err)
			}
			return
		case <-t.C:
		}
		a.minute.Store(a.now().Unix() / 60)
		if err := a.FlushKeyUsage(); err != nil && onErr != nil {
			onErr(err)
		}
	}
}

// TickKeyUsage sets the current minute from the clock now (RunKeyUsage
// does it every interval; tests with a fake clock call it directly).
func (a *Accounts) TickKeyUsage() { a.minute.Store(a.now().Unix() / 60) }
