package persistence

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// The event log: every event of an account, read by the webhook fan-out
// from the account's outbox cursor on (outbox.go) and by the order stream
// (GET /v1/orders/stream).
//
// Key layout (see keys.go):
//
//	n/<accountID>/<seq, uint64 big-endian>   <appended at, unix ns BE8><OutboxEvent JSON>
//
// A row is written by Stage in its transition's batch, so it exists if and
// only if its transition is durable, and the outbox's in-flight rule holds
// for every reader: none reads past the lowest seq of the account still in
// flight. The JSON is the body of the event's webhook deliveries.
//
// Retention: each append deletes the rows that fell LogKeep seqs below it
// (the log keeps an account's last LogKeep events), and TrimLog deletes
// the rows appended before a cutoff (the webhook retry horizon). Neither
// deletes a row at or past the account's outbox cursor: an event not yet
// handed to the webhook fan-out stays, and the count window deletes what
// it kept once the cursor passes (a few rows per append). Seqs of an
// account are contiguous but for transitions whose commit failed, so an
// account keeps at most LogKeep events once its events are handed on.

// eventLogPrefix is the event log's key prefix.
const eventLogPrefix = "n/"

// DefaultLogKeep is the default of Outbox.LogKeep.
const DefaultLogKeep = 10_000

func eventLogAccountPrefix(accountID string) []byte { return []byte(eventLogPrefix + accountID + "/") }

func eventLogKey(accountID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(eventLogAccountPrefix(accountID), seq)
}

// LogRow is one event of an account's log.
type LogRow struct {
	Seq uint64
	// At is when this node appended it.
	At time.Time
	// JSON is the event (OutboxEvent JSON); its id is at a fixed place.
	JSON []byte
}

// Trigger returns the event's trigger ("" when the JSON does not carry it
// second, which the log never writes).
func (r LogRow) Trigger() string {
	const key = `","trigger":"`
	i := bytes.Index(r.JSON, []byte(key))
	if i < 0 {
		return ""
	}
	rest := r.JSON[i+len(key):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return ""
	}
	return string(rest[:end])
}

// ID returns the event id of the row ("" when the JSON does not start
// with it, which the log never writes).
func (r LogRow) ID() string {
	const head = `{"id":"`
	if !bytes.HasPrefix(r.JSON, []byte(head)) {
		return ""
	}
	rest := r.JSON[len(head):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return ""
	}
	return string(rest[:end])
}

// trimMax bounds the rows of the count window one append deletes: the
// window catches up a few rows at a time after its cursor held it back.
const trimMax = 16

// trimLocked returns the seqs [from, to) of a's log that fall out of the
// count window with the seqs just assigned, before the cursor, and takes
// them off the window's debt.
func (o *Outbox) trimLocked(a *outboxAccount) (from, to uint64) {
	keep := uint64(o.LogKeep)
	if keep == 0 {
		keep = DefaultLogKeep
	}
	if a.next <= keep {
		return 0, 0
	}
	to = min(a.next-keep, a.cursor, a.trimFrom+trimMax)
	if to <= a.trimFrom {
		return 0, 0
	}
	from, a.trimFrom = a.trimFrom, to
	return from, to
}

// stageLog adds the log rows of st to w, and the deletion of the rows
// [trimFrom, trimTo) that fell out of the account's window.
func (o *Outbox) stageLog(w Writer, st *StagedEvents, at time.Time, trimFrom, trimTo uint64) error {
	var stamp [8]byte
	binary.BigEndian.PutUint64(stamp[:], uint64(at.UnixNano()))
	for i, seq := range st.seqs {
		v := make([]byte, 0, 8+len(st.rows[i].JSON))
		v = append(append(v, stamp[:]...), st.rows[i].JSON...)
		if err := w.Set(eventLogKey(st.accountID, seq), v, nil); err != nil {
			return fmt.Errorf("persistence: event log stage: %w", err)
		}
	}
	for seq := trimFrom; seq < trimTo; seq++ {
		if err := w.Delete(eventLogKey(st.accountID, seq), nil); err != nil {
			return fmt.Errorf("persistence: event log stage: %w", err)
		}
	}
	return nil
}

// logBounds returns the lowest logged seq of accountID and the seq after
// the highest (both 0 when the log is empty), for accountLocked.
func (o *Outbox) logBounds(accountID string) (first, next uint64, err error) {
	p := eventLogAccountPrefix(accountID)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return 0, 0, fmt.Errorf("persistence: event log iter: %w", err)
	}
	defer it.Close()
	if !it.Last() {
		return 0, 0, nil
	}
	next = binary.BigEndian.Uint64(it.Key()[len(p):]) + 1
	if !it.First() {
		return 0, 0, fmt.Errorf("persistence: event log of %s: no first row after a last one", accountID)
	}
	return binary.BigEndian.Uint64(it.Key()[len(p):]), next, nil
}

// splitLogKey returns the account and seq of an event log key (ok false
// when key is not one).
func splitLogKey(key []byte) (accountID string, seq uint64, ok bool) {
	return splitSeqKey(eventLogPrefix, key)
}

// splitSeqKey returns the account and seq of a key
// <prefix><accountID>/<seq uint64 BE> (ok false when key is not one).
func splitSeqKey(prefix string, key []byte) (accountID string, seq uint64, ok bool) {
	rest, found := bytes.CutPrefix(key, []byte(prefix))
	i := bytes.IndexByte(rest, '/')
	if !found || i < 0 || len(rest) != i+1+8 {
		return "", 0, false
	}
	return string(rest[:i]), binary.BigEndian.Uint64(rest[i+1:]), true
}

// lastLogged calls fn with every account that has a log and the seq of
// its newest row, in account order: a seek per account.
func lastLogged(r pebble.Reader, fn func(accountID string, last uint64) error) error {
	p := []byte(eventLogPrefix)
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return fmt.Errorf("persistence: event log iter: %w", err)
	}
	defer it.Close()
	for ok := it.First(); ok; {
		acct, _, logged := splitLogKey(it.Key())
		if !logged {
			ok = it.Next()
			continue
		}
		end := PrefixUpperBound(eventLogAccountPrefix(acct))
		if !it.SeekLT(end) {
			break
		}
		_, last, _ := splitLogKey(it.Key())
		if err := fn(acct, last); err != nil {
			return err
		}
		ok = it.SeekGE(end)
	}
	return it.Error()
}

// LogWatch returns a channel closed when an event of accountID settles
// (durable or not): take it before reading the log, then wait on it.
func (o *Outbox) LogWatch(accountID string) <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	ch := o.watchers[accountID]
	if ch == nil {
		ch = make(chan struct{})
		o.watchers[accountID] = ch
	}
	return ch
}

// wakeLocked closes the watch channel of accountID, if any.
func (o *Outbox) wakeLocked(accountID string) {
	if ch := o.watchers[accountID]; ch != nil {
		close(ch)
		delete(o.watchers, accountID)
	}
}

// LogFrom returns up to max visible events of accountID's log from seq
// from on, in seq order.
func (o *Outbox) LogFrom(accountID string, from uint64, max int) ([]LogRow, error) {
	if err := o.store.Err(); err != nil {
		return nil, err
	}
	o.mu.Lock()
	_, err := o.accountLocked(accountID)
	o.mu.Unlock()
	if err != nil {
		return nil, err
	}
	limit := o.visibleLimit(accountID)
	p := eventLogAccountPrefix(accountID)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: eventLogKey(accountID, from), UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: event log iter: %w", err)
	}
	defer it.Close()
	var out []LogRow
	for ok := it.First(); ok && len(out) < max; ok = it.Next() {
		seq := binary.BigEndian.Uint64(it.Key()[len(p):])
		if seq >= limit {
			break
		}
		r, err := logRow(seq, it)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// LogFind looks for event id in accountID's log, reading backwards from
// the newest (a reconnecting stream's Last-Event-ID is usually recent). It
// returns the event's row and from, the seq of the oldest event appended
// at most overlap before it (the row's own seq with overlap 0); found is
// false when the log does not hold the event.
func (o *Outbox) LogFind(accountID, id string, overlap time.Duration) (row LogRow, from uint64, found bool, err error) {
	p := eventLogAccountPrefix(accountID)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return LogRow{}, 0, false, fmt.Errorf("persistence: event log iter: %w", err)
	}
	defer it.Close()
	needle := []byte(`{"id":"` + id + `"`)
	ok := it.Last()
	for ; ok; ok = it.Prev() {
		v, err := it.ValueAndErr()
		if err != nil {
			return LogRow{}, 0, false, fmt.Errorf("persistence: event log value: %w", err)
		}
		if len(v) > 8 && bytes.HasPrefix(v[8:], needle) {
			if row, err = logRow(binary.BigEndian.Uint64(it.Key()[len(p):]), it); err != nil {
				return LogRow{}, 0, false, err
			}
			break
		}
	}
	if !ok {
		return LogRow{}, 0, false, nil
	}
	from = row.Seq
	since := row.At.Add(-overlap).UnixNano()
	for ok = it.Prev(); ok && overlap > 0; ok = it.Prev() {
		v, err := it.ValueAndErr()
		if err != nil {
			return LogRow{}, 0, false, fmt.Errorf("persistence: event log value: %w", err)
		}
		if len(v) < 8 || int64(binary.BigEndian.Uint64(v[:8])) < since {
			break
		}
		from = binary.BigEndian.Uint64(it.Key()[len(p):])
	}
	return row, from, true, nil
}

// LogNext returns the seq a reader of accountID's log that wants only the
// events to come starts from: after the newest logged event, or at the
// lowest one still in flight.
func (o *Outbox) LogNext(accountID string) (uint64, error) {
	o.mu.Lock()
	_, err := o.accountLocked(accountID)
	o.mu.Unlock()
	if err != nil {
		return 0, err
	}
	_, next, err := o.logBounds(accountID)
	if err != nil {
		return 0, err
	}
	return min(next, o.visibleLimit(accountID)), nil
}

func logRow(seq uint64, it *pebble.Iterator) (LogRow, error) {
	v, err := it.ValueAndErr()
	if err != nil {
		return LogRow{}, fmt.Errorf("persistence: event log value: %w", err)
	}
	if len(v) < 8 {
		return LogRow{}, fmt.Errorf("persistence: event log row %d is %d bytes", seq, len(v))
	}
	return LogRow{Seq: seq, At: time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))).UTC(), JSON: bytes.Clone(v[8:])}, nil
}

// TrimLog deletes, for every account, the logged events appended before
// cutoff and before the account's outbox cursor. It returns how many it
// deleted.
func (o *Outbox) TrimLog(cutoff time.Time) (int, error) {
	p := []byte(eventLogPrefix)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return 0, fmt.Errorf("persistence: event log iter: %w", err)
	}
	defer it.Close()
	b := o.store.db.NewBatch()
	defer b.Close()
	n := 0
	// cursor is the outbox cursor of the account cursorOf.
	var cursor uint64
	cursorOf := ""
	for ok := it.First(); ok; {
		acct, seq, logged := splitLogKey(it.Key())
		if !logged {
			ok = it.Next()
			continue
		}
		if acct != cursorOf {
			if cursor, err = o.cursorOf(acct); err != nil {
				return n, err
			}
			cursorOf = acct
		}
		v, err := it.ValueAndErr()
		if err != nil {
			return n, fmt.Errorf("persistence: event log value: %w", err)
		}
		if seq < cursor && len(v) >= 8 && int64(binary.BigEndian.Uint64(v[:8])) < cutoff.UnixNano() {
			if err := b.Delete(bytes.Clone(it.Key()), nil); err != nil {
				return n, err
			}
			n++
			ok = it.Next()
			continue
		}
		// The rest of the account's log is younger, or not handed on
		// yet: the next account.
		ok = it.SeekGE(PrefixUpperBound(eventLogAccountPrefix(acct)))
	}
	if n == 0 {
		return 0, nil
	}
	if err := o.store.Commit(b, pebble.NoSync); err != nil {
		return 0, fmt.Errorf("persistence: trim the event log: %w", err)
	}
	return n, nil
}
