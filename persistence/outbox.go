package persistence

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/orderengine/orderengine/internal/jsonw"
)

// The event outbox.
//
// Every lifecycle event an account should hear about (order.filled,
// order.cancelled, ...) is written to the account's event log
// (eventlog.go) in the SAME Pebble batch as the state transition that
// produces it, so an event exists if and only if its transition is
// durable. The outbox is a cursor over that log: the account's events from
// its cursor on are the ones the webhook fan-out has not handed on yet. The
// fan-out hands each event's row to the account's endpoints, which create
// their deliveries from it, and then moves the cursor past it (Consume, or
// the only endpoint's create in its own batch). An event is written once,
// whoever reads it.
//
// Key layout (see keys.go):
//
//	e/<accountID>    the account's cursor: the first seq not handed on
//	                 (uint64 big-endian); absent means 0
//
// seq is assigned per account, strictly increasing: at start (first use
// of an account) it resumes after the highest logged seq, and never below
// the cursor, so a new event is never taken for one handed on. The log's
// trims never delete an event at or past the cursor (eventlog.go).
//
// Producer protocol: the order journal (persistence/orderstore) stages a
// transition's events (Stage: seqs assigned and marked in flight, rows
// added to the transition's writes), writes them with the transition, and
// settles them whatever the outcome (Settle: no longer in flight, cached
// for the consumer when durable, subscribers notified). A consumer never
// reads past the lowest in-flight seq of an account, so a write that
// commits late cannot be skipped by a consumer that already read a later
// seq, and the cursor never passes an event not yet handed on. A seq that
// is never settled is given up after OutboxInFlightTimeout (logged), so a
// buggy producer delays events, never blocks them forever.

// OutboxInFlightTimeout is how long an appended, not yet Done seq holds back
// consumers of its account before the outbox stops waiting for it.
const OutboxInFlightTimeout = 30 * time.Second

// Event triggers (the X-Service-Event values of specification section 6).
const (
	TriggerOrderFilled    = "order.filled"
	TriggerOrderCancelled = "order.cancelled"
	TriggerOrderExpired   = "order.expired"
	TriggerOrderFailed    = "order.failed"
	TriggerStopTriggered  = "stop.triggered"
	TriggerDCACompleted   = "dca.completed"
	TriggerDCAStalled     = "dca.stalled"
	TriggerTestPing       = "test.ping"
)

// Triggers lists every trigger in catalogue order.
var Triggers = [...]string{
	TriggerOrderFilled, TriggerOrderCancelled, TriggerOrderExpired, TriggerOrderFailed,
	TriggerStopTriggered, TriggerDCACompleted, TriggerDCAStalled, TriggerTestPing,
}

// OutboxEvent is one event of an account. Its JSON (AppendJSON) is what
// its event log row holds and the body of its webhook deliveries.
type OutboxEvent struct {
	// ID is the event id ("evt_…"), also the X-Service-Delivery value.
	// Append fills it when empty.
	ID      string `json:"id"`
	Trigger string `json:"trigger"`
	// CreatedAt is when the transition happened; Append fills it when zero.
	CreatedAt time.Time `json:"createdAt"`
	Data      EventData `json:"data"`
}

// EventData is the data object of an event. Amounts are decimal strings,
// addresses EIP-55, pair is "<tokenIn>-<tokenOut>". Fields that do not apply
// to a trigger are omitted.
type EventData struct {
	OrderType string `json:"orderType,omitempty"`
	Pair      string `json:"pair,omitempty"`
	TokenIn   string `json:"tokenIn,omitempty"`
	TokenOut  string `json:"tokenOut,omitempty"`
	AmountIn  string `json:"amountIn,omitempty"`
	AmountOut string `json:"amountOut,omitempty"`
	TxHash    string `json:"txHash,omitempty"`
	OrderHash string `json:"orderHash,omitempty"`
	// Reason and RevertName are set on order.failed.
	Reason     string `json:"reason,omitempty"`
	RevertName string `json:"revertName,omitempty"`
	// Executions and TotalExecutions are set on DCA events.
	Executions      string `json:"executions,omitempty"`
	TotalExecutions string `json:"totalExecutions,omitempty"`
	// TriggerPrice is set on stop.triggered (and trailing: the price seen).
	TriggerPrice string `json:"triggerPrice,omitempty"`
	// Message is free text (test.ping).
	Message string `json:"message,omitempty"`
}

// eventJSONSize is the room AppendJSON makes before it writes: an order
// event's JSON is 400–500 bytes (its id, trigger, time, pair, amounts and
// hashes), so it is built without regrowing.
const eventJSONSize = 640

// AppendJSON appends the JSON of e to dst: the same bytes as json.Marshal(e)
// (TestOutboxEventJSONMatchesMarshal), without reflection. It is what
// its event log row holds and the body of its webhook deliveries.
func (e *OutboxEvent) AppendJSON(dst []byte) ([]byte, error) {
	dst = slices.Grow(dst, eventJSONSize)
	dst = append(dst, `{"id":`...)
	dst = jsonw.String(dst, e.ID)
	dst = append(dst, `,"trigger":`...)
	dst = jsonw.String(dst, e.Trigger)
	dst = append(dst, `,"createdAt":`...)
	dst, err := jsonw.Time(dst, e.CreatedAt)
	if err != nil {
		return nil, err
	}
	d := &e.Data
	fields := [...]struct{ key, v string }{
		{`"orderType":`, d.OrderType}, {`"pair":`, d.Pair}, {`"tokenIn":`, d.TokenIn}, {`"tokenOut":`, d.TokenOut},
		{`"amountIn":`, d.AmountIn}, {`"amountOut":`, d.AmountOut}, {`"txHash":`, d.TxHash}, {`"orderHash":`, d.OrderHash},
		{`"reason":`, d.Reason}, {`"revertName":`, d.RevertName}, {`"executions":`, d.Executions},
		{`"totalExecutions":`, d.TotalExecutions}, {`"triggerPrice":`, d.TriggerPrice}, {`"message":`, d.Message},
	}
	dst = append(dst, `,"data":{`...)
	first := true
	for _, f := range fields {
		if f.v == "" {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, f.key...)
		dst = jsonw.String(dst, f.v)
	}
	return append(dst, "}}"...), nil
}

// OutboxEntry is an event as a consumer reads it, with its position.
type OutboxEntry struct {
	Seq   uint64
	Event OutboxEvent
}

// OutboxRow is an event's row as stored: its position, id and trigger, and
// its JSON (the webhook body), not decoded.
type OutboxRow struct {
	Seq     uint64
	ID      string
	Trigger string
	// CreatedAt is when the event's transition happened.
	CreatedAt time.Time
	// JSON is the row's value; it must not be modified.
	JSON []byte
}

// Outbox is the per-account event outbox over a Store. It is safe for
// concurrent use. There is one Outbox per Store (the Engine holds it), and
// one consumer of its change notifications (the webhook fan-out).
type Outbox struct {
	// LogKeep is how many events of each account the event log keeps
	// (eventlog.go); zero means DefaultLogKeep. Set it before the first
	// event.
	LogKeep int

	store *Store
	log   *slog.Logger
	now   func() time.Time

	mu       sync.Mutex
	accounts map[string]*outboxAccount
	// changed holds the accounts with events settled since the consumer
	// last took them; signal holds one token while it is not empty.
	changed map[string]struct{}
	signal  chan struct{}
	// watchers are the event log's readers waiting for an account's next
	// event (LogWatch).
	watchers map[string]chan struct{}
}

type outboxAccount struct {
	next     uint64               // next seq to assign
	inFlight map[uint64]time.Time // staged, not yet settled
	// cache holds settled durable rows until the cursor passes them, so
	// a scan usually answers from memory instead of seeking the LSM.
	cache map[uint64]OutboxRow
	// cursor is the first seq not handed on, as last written (Consume,
	// Consumed); it only grows.
	cursor uint64
	// trimFrom is the lowest seq the log's count window has not deleted
	// yet (eventlog.go).
	trimFrom uint64
}

// outboxCacheMax bounds the cached events per account (beyond it Scan reads
// the disk), so an account nobody consumes cannot grow memory.
const outboxCacheMax = 4096

// NewOutbox returns the outbox of store. now is the clock (nil: time.Now).
func NewOutbox(store *Store, log *slog.Logger, now func() time.Time) *Outbox {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Outbox{store: store, log: log, now: now, accounts: make(map[string]*outboxAccount),
		changed: make(map[string]struct{}), signal: make(chan struct{}, 1), watchers: make(map[string]chan struct{})}
}

// Changed returns the channel that holds a token while some account has
// events settled since the last TakeChanged. The outbox only signals it:
// the consumer decides when to read.
func (o *Outbox) Changed() <-chan struct{} { return o.signal }

// TakeChanged returns the accounts with events settled since the last call
// (visible to Scan, or given up), and forgets them.
func (o *Outbox) TakeChanged() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.changed))
	for a := range o.changed {
		out = append(out, a)
	}
	clear(o.changed)
	return out
}

// StagedEvents are a transition's events between Stage and Settle.
type StagedEvents struct {
	accountID string
	seqs      []uint64
	rows      []OutboxRow
}

// Stage stages events for account and, when other is not "", for other
// too: it assigns their seqs, marks them in flight and adds their rows
// (outbox and event log) to w, the writes of the transition that produces
// them. Both accounts get the same events, ids and times, so a receiver of
// both dedupes them as one. The caller must Settle each result whatever
// happens next; on an error nothing stays staged. A nil Outbox stages
// nothing (the caller has checked there are no events).
func (o *Outbox) Stage(w Writer, account, other string, events []OutboxEvent) (first, second *StagedEvents, err error) {
	if other != "" {
		now := o.now().UTC()
		events = slices.Clone(events)
		for i := range events {
			if events[i].ID == "" {
				events[i].ID = NewEventID()
			}
			if events[i].CreatedAt.IsZero() {
				events[i].CreatedAt = now
			}
		}
	}
	if first, err = o.stage(w, account, events); err != nil || other == "" {
		return first, nil, err
	}
	if second, err = o.stage(w, other, events); err != nil {
		o.Settle(first, false)
		return nil, nil, err
	}
	return first, second, nil
}

// stage assigns seqs to events under accountID, marks them in flight and
// adds their rows to w. The caller must call Settle with the result
// whatever happens next.
func (o *Outbox) stage(w Writer, accountID string, events []OutboxEvent) (*StagedEvents, error) {
	if len(events) == 0 {
		return nil, nil
	}
	if accountID == "" {
		return nil, fmt.Errorf("persistence: outbox events need an account")
	}
	st := &StagedEvents{accountID: accountID, seqs: make([]uint64, len(events)), rows: make([]OutboxRow, len(events))}
	now := o.now().UTC()
	for i, ev := range events {
		if ev.Trigger == "" {
			return nil, fmt.Errorf("persistence: outbox event without a trigger")
		}
		if ev.ID == "" {
			ev.ID = NewEventID()
		}
		if ev.CreatedAt.IsZero() {
			ev.CreatedAt = now
		}
		ev.CreatedAt = ev.CreatedAt.UTC() // the body's createdAt is UTC
		v, err := ev.AppendJSON(nil)
		if err != nil {
			return nil, fmt.Errorf("persistence: encode event: %w", err)
		}
		st.rows[i] = OutboxRow{ID: ev.ID, Trigger: ev.Trigger, CreatedAt: ev.CreatedAt, JSON: v}
	}
	o.mu.Lock()
	acct, err := o.accountLocked(accountID)
	if err != nil {
		o.mu.Unlock()
		return nil, err
	}
	at := o.now()
	for i := range st.seqs {
		st.seqs[i] = acct.next
		st.rows[i].Seq = acct.next
		acct.next++
		acct.inFlight[st.seqs[i]] = at
	}
	trimFrom, trimTo := o.trimLocked(acct)
	o.mu.Unlock()
	if err := o.stageLog(w, st, at, trimFrom, trimTo); err != nil {
		o.Settle(st, false)
		return nil, err
	}
	return st, nil
}

// Settle ends Stage: the seqs of st are no longer in flight; when durable
// (their transition was committed) the rows are cached for the consumer
// (who otherwise reads them back from disk); the account is marked changed
// either way (a later event may have waited behind these). A nil st (no
// events staged) settles nothing.
func (o *Outbox) Settle(st *StagedEvents, durable bool) {
	if st == nil {
		return
	}
	o.mu.Lock()
	if a := o.accounts[st.accountID]; a != nil {
		for i, seq := range st.seqs {
			delete(a.inFlight, seq)
			if durable && len(a.cache) < outboxCacheMax {
				a.cache[seq] = st.rows[i]
			}
		}
	}
	o.changed[st.accountID] = struct{}{}
	o.wakeLocked(st.accountID)
	o.mu.Unlock()
	select {
	case o.signal <- struct{}{}:
	default:
	}
}

// accountLocked returns the in-memory state of accountID, loading its
// cursor and resuming its seq after the highest logged one on first use.
func (o *Outbox) accountLocked(accountID string) (*outboxAccount, error) {
	if a := o.accounts[accountID]; a != nil {
		return a, nil
	}
	a := &outboxAccount{inFlight: make(map[uint64]time.Time), cache: make(map[uint64]OutboxRow)}
	cursor, err := o.storedCursor(accountID)
	if err != nil {
		return nil, err
	}
	first, next, err := o.logBounds(accountID)
	if err != nil {
		return nil, err
	}
	// Never at or below an event handed on: a new event there would be
	// taken for one.
	a.cursor, a.next, a.trimFrom = cursor, max(next, cursor), first
	o.accounts[accountID] = a
	return a, nil
}

// storedCursor reads the cursor of accountID (0 when none is stored).
func (o *Outbox) storedCursor(accountID string) (uint64, error) {
	v, ok, err := o.store.Get(OutboxCursorKey(accountID))
	if err != nil {
		return 0, fmt.Errorf("persistence: outbox cursor: %w", err)
	}
	if !ok {
		return 0, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("persistence: outbox cursor of %s is %d bytes", accountID, len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// visibleLimit returns the first seq a consumer of accountID must not read
// yet (the lowest in-flight seq), or math.MaxUint64 when none is in flight.
func (o *Outbox) visibleLimit(accountID string) uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	limit := ^uint64(0)
	a := o.accounts[accountID]
	if a == nil {
		return limit
	}
	now := o.now()
	for seq, at := range a.inFlight {
		if now.Sub(at) > OutboxInFlightTimeout {
			o.log.Warn("outbox: giving up on an event never marked Done", "account", accountID, "seq", seq)
			delete(a.inFlight, seq)
			continue
		}
		if seq < limit {
			limit = seq
		}
	}
	return limit
}

// Scan returns up to max visible events of accountID with seq >= from, in
// seq order, decoded. A consumer's cursor is the last seq it handled plus
// one.
func (o *Outbox) Scan(accountID string, from uint64, max int) ([]OutboxEntry, error) {
	rows, err := o.ScanRows(accountID, from, max)
	if err != nil {
		return nil, err
	}
	out := make([]OutboxEntry, len(rows))
	for i, r := range rows {
		out[i].Seq = r.Seq
		if err := json.Unmarshal(r.JSON, &out[i].Event); err != nil {
			return nil, fmt.Errorf("persistence: decode event %s/%d: %w", accountID, r.Seq, err)
		}
	}
	return out, nil
}

// ScanRows is Scan without decoding: the rows as stored. It starts at the
// account's cursor when from is below it. Once the store has failed it
// returns the failure: the store may then hold events whose commit failed
// (walwatch.go).
func (o *Outbox) ScanRows(accountID string, from uint64, max int) ([]OutboxRow, error) {
	if err := o.store.Err(); err != nil {
		return nil, err
	}
	o.mu.Lock()
	a, err := o.accountLocked(accountID)
	if err == nil && from < a.cursor {
		from = a.cursor
	}
	o.mu.Unlock()
	if err != nil {
		return nil, err
	}
	limit := o.visibleLimit(accountID)
	if out, ok := o.scanCache(accountID, from, limit, max); ok {
		return out, nil
	}
	p := eventLogAccountPrefix(accountID)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: eventLogKey(accountID, from), UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: outbox iter: %w", err)
	}
	defer it.Close()
	var out []OutboxRow
	for ok := it.First(); ok && len(out) < max; ok = it.Next() {
		seq := binary.BigEndian.Uint64(it.Key()[len(p):])
		if seq >= limit {
			break
		}
		lr, err := logRow(seq, it)
		if err != nil {
			return nil, err
		}
		r := OutboxRow{Seq: seq, JSON: lr.JSON}
		var head struct {
			ID, Trigger string
			CreatedAt   time.Time
		}
		if err := json.Unmarshal(r.JSON, &head); err != nil {
			return nil, fmt.Errorf("persistence: decode event %s/%d: %w", accountID, seq, err)
		}
		r.ID, r.Trigger, r.CreatedAt = head.ID, head.Trigger, head.CreatedAt
		out = append(out, r)
	}
	return out, nil
}

// scanCache answers ScanRows from memory when every seq in [from, limit)
// that this process assigned is cached (ok false: read the disk).
func (o *Outbox) scanCache(accountID string, from, limit uint64, max int) ([]OutboxRow, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	a := o.accounts[accountID]
	if a == nil {
		return nil, false
	}
	end := min(limit, a.next)
	if from > end || end-from > uint64(2*max) {
		return nil, false
	}
	var out []OutboxRow
	for seq := from; seq < end && len(out) < max; seq++ {
		r, ok := a.cache[seq]
		if !ok {
			return nil, false
		}
		out = append(out, r)
	}
	return out, true
}

// Consume moves the cursors of accounts once their consumer has handed
// their events on: next maps an account id to the seq after its last
// event handed on (every visible event below it was). The cursors are one
// batch written without waiting for an fsync: it lands in the WAL after
// every write the consumer made before calling it, so a power loss that
// keeps it keeps those too. A cursor never goes back.
func (o *Outbox) Consume(next map[string]uint64) error {
	b := o.store.db.NewBatch()
	defer b.Close()
	o.mu.Lock()
	for acct, n := range next {
		if a := o.accounts[acct]; a != nil {
			o.advanceLocked(a, n)
			n = a.cursor
		}
		if err := b.Set(OutboxCursorKey(acct), OutboxCursorValue(n), nil); err != nil {
			o.mu.Unlock()
			return err
		}
	}
	o.mu.Unlock()
	if err := o.store.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("persistence: move the outbox cursors: %w", err)
	}
	return nil
}

// Consumed records that a write other than Consume moved the cursor of
// accountID to next: a webhook create that handed the events on, with
// the cursor in its batch (DeliveryJournal.CreateDeliveries). Call it
// once that write is committed.
func (o *Outbox) Consumed(accountID string, next uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if a := o.accounts[accountID]; a != nil {
		o.advanceLocked(a, next)
	}
}

// advanceLocked moves a's cursor to next, unless it is already past it,
// and drops the cached rows it passed.
func (o *Outbox) advanceLocked(a *outboxAccount, next uint64) {
	if next <= a.cursor {
		return
	}
	if next-a.cursor <= uint64(len(a.cache)) {
		for seq := a.cursor; seq < next; seq++ {
			delete(a.cache, seq)
		}
	} else {
		for seq := range a.cache {
			if seq < next {
				delete(a.cache, seq)
			}
		}
	}
	a.cursor = next
}

// OutboxAccounts returns the ids of the accounts whose log holds events
// past their cursor, and loads them (used at start to resume consumers):
// a seek and a read per account with a log.
func (o *Outbox) OutboxAccounts() ([]string, error) {
	var out []string
	err := lastLogged(o.store.db, func(acct string, last uint64) error {
		cursor, err := o.cursorOf(acct)
		if err != nil || last < cursor {
			return err
		}
		o.mu.Lock()
		_, err = o.accountLocked(acct)
		o.mu.Unlock()
		out = append(out, acct)
		return err
	})
	return out, err
}

// Behind returns the ids of the loaded accounts whose cursor is behind
// their next seq, from memory (the fan-out's sweep). Every account with
// events not handed on is loaded: by OutboxAccounts at start, or by the
// Stage of the events.
func (o *Outbox) Behind() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for id, a := range o.accounts {
		if a.cursor < a.next {
			out = append(out, id)
		}
	}
	return out
}

// cursorOf returns the cursor of accountID: the in-memory one when the
// account is loaded (it never falls behind the stored one for long: a
// create that moved the stored one is followed by Consumed, and a cursor
// read low only delays a trim), else the stored one.
func (o *Outbox) cursorOf(accountID string) (uint64, error) {
	o.mu.Lock()
	a := o.accounts[accountID]
	var cursor uint64
	if a != nil {
		cursor = a.cursor
	}
	o.mu.Unlock()
	if a != nil {
		return cursor, nil
	}
	return o.storedCursor(accountID)
}

// Unfanned counts, up to limit, the durable events not handed on of the
// accounts this process has used (a scrape of the webhook metrics),
// reading keys only. ok is false when the store is closing or has failed.
func (o *Outbox) Unfanned(limit int) (n int, ok bool, err error) {
	done, gerr := o.store.Gate()
	if gerr != nil {
		return 0, false, nil
	}
	defer done()
	type span struct {
		account string
		from    uint64
	}
	o.mu.Lock()
	var spans []span
	for id, a := range o.accounts {
		if a.cursor < a.next {
			spans = append(spans, span{id, a.cursor})
		}
	}
	o.mu.Unlock()
	for _, sp := range spans {
		if n >= limit {
			break
		}
		p := eventLogAccountPrefix(sp.account)
		it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: eventLogKey(sp.account, sp.from), UpperBound: PrefixUpperBound(p)})
		if err != nil {
			return n, false, fmt.Errorf("persistence: outbox iter: %w", err)
		}
		for more := it.First(); more && n < limit; more = it.Next() {
			n++
		}
		if err := it.Close(); err != nil {
			return n, false, fmt.Errorf("persistence: outbox iter: %w", err)
		}
	}
	return n, true, nil
}

// NewEventID returns a fresh event id, "evt_" and 22 base62 characters.
func NewEventID() string { return NewID("evt_", 22) }

// OutboxCursorKey is the key of an account's outbox cursor: e/<accountID>.
func OutboxCursorKey(accountID string) []byte { return []byte(PrefixOutbox + accountID) }

// OutboxCursorValue is the value of an outbox cursor at next.
func OutboxCursorValue(next uint64) []byte { return binary.BigEndian.AppendUint64(nil, next) }
