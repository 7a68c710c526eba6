package persistence

import (
	"bytes"
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
// order.cancelled, ...) is written as an OutboxEvent row in the SAME Pebble
// batch as the state transition that produces it, so an event exists if and
// only if its transition is durable. The webhook fan-out consumes the
// outbox: it hands each event's row to the account's endpoints, which
// create their deliveries from it, and then deletes the event (Consume).
//
// Key layout (see keys.go):
//
//	e/<accountID>/<seq, uint64 big-endian>   OutboxEvent, JSON (AppendJSON):
//	                                         the body of its webhook deliveries
//
// seq is assigned per account, strictly increasing within a process. At
// start (first Append for an account) it resumes after the highest key
// present; when the outbox of an account has been fully consumed it may
// restart lower, which is harmless because a consumer only ever sees the
// keys that are present.
//
// Producer protocol: the order journal (persistence/orderstore) stages a
// transition's events (Stage: seqs assigned and marked in flight, rows
// added to the transition's writes), writes them with the transition, and
// settles them whatever the outcome (Settle: no longer in flight, cached
// for the consumer when durable, subscribers notified). A consumer never
// reads past the lowest in-flight seq of an account, so a write that
// commits late cannot be skipped by a consumer that already read a later
// seq. A seq that is never settled is given up after
// OutboxInFlightTimeout (logged), so a buggy producer delays events, never
// blocks them forever.

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

// OutboxEvent is one event of an account. Its JSON (AppendJSON) is the
// on-disk value of an e/ row and the body of its webhook deliveries.
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
// (TestOutboxEventJSONMatchesMarshal), without reflection. It is the
// outbox row's value and the body of the event's webhook deliveries.
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
	// cache holds settled durable rows until a consumer deletes them, so
	// a scan usually answers from memory instead of seeking the LSM.
	cache map[uint64]OutboxRow
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
	o.mu.Unlock()
	for i, seq := range st.seqs {
		if err := w.Set(OutboxKey(accountID, seq), st.rows[i].JSON, nil); err != nil {
			o.Settle(st, false)
			return nil, fmt.Errorf("persistence: outbox stage: %w", err)
		}
	}
	if err := o.stageLog(w, st, at); err != nil {
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

// accountLocked returns the in-memory state of accountID, resuming its seq
// after the highest key in the store on first use.
func (o *Outbox) accountLocked(accountID string) (*outboxAccount, error) {
	if a := o.accounts[accountID]; a != nil {
		return a, nil
	}
	a := &outboxAccount{inFlight: make(map[uint64]time.Time), cache: make(map[uint64]OutboxRow)}
	p := outboxPrefix(accountID)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: outbox iter: %w", err)
	}
	if it.Last() {
		a.next = binary.BigEndian.Uint64(it.Key()[len(p):]) + 1
	}
	if err := it.Close(); err != nil {
		return nil, fmt.Errorf("persistence: outbox iter: %w", err)
	}
	// Never below a logged event: the event log shares the seqs.
	logged, err := o.lastLogSeq(accountID)
	if err != nil {
		return nil, err
	}
	a.next = max(a.next, logged)
	o.accounts[accountID] = a
	return a, nil
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

// ScanRows is Scan without decoding: the rows as stored. Once the store has
// failed it returns the failure: the store may then hold events whose
// commit failed (walwatch.go).
func (o *Outbox) ScanRows(accountID string, from uint64, max int) ([]OutboxRow, error) {
	if err := o.store.Err(); err != nil {
		return nil, err
	}
	limit := o.visibleLimit(accountID)
	if out, ok := o.scanCache(accountID, from, limit, max); ok {
		return out, nil
	}
	p := outboxPrefix(accountID)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: OutboxKey(accountID, from), UpperBound: PrefixUpperBound(p)})
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
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("persistence: outbox value: %w", err)
		}
		r := OutboxRow{Seq: seq, JSON: bytes.Clone(v)}
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

// Consume deletes events once their consumer has handed them on: done maps
// an account id to the seqs of its events. The deletion is one batch
// written without waiting for an fsync: it lands in the WAL after every
// write the consumer made before calling it, so a power loss that keeps it
// keeps those too.
func (o *Outbox) Consume(done map[string][]uint64) error {
	o.mu.Lock()
	for acct, seqs := range done {
		if a := o.accounts[acct]; a != nil {
			for _, seq := range seqs {
				delete(a.cache, seq)
			}
		}
	}
	o.mu.Unlock()
	b := o.store.db.NewBatch()
	defer b.Close()
	for acct, seqs := range done {
		for _, seq := range seqs {
			if err := b.Delete(OutboxKey(acct, seq), nil); err != nil {
				return err
			}
		}
	}
	if err := o.store.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("persistence: consume outbox events: %w", err)
	}
	return nil
}

// Forget drops the cached rows of events of accountID deleted by another
// write than Consume (a webhook create that handed them on,
// DeliveryJournal.CreateDeliveries).
func (o *Outbox) Forget(accountID string, seqs []uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if a := o.accounts[accountID]; a != nil {
		for _, seq := range seqs {
			delete(a.cache, seq)
		}
	}
}

// OutboxAccounts returns the ids of the accounts that have events in the
// store (used at start to resume consumers).
func (o *Outbox) OutboxAccounts() ([]string, error) {
	p := []byte(PrefixOutbox)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: outbox iter: %w", err)
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; {
		rest := it.Key()[len(p):]
		i := bytes.IndexByte(rest, '/')
		if i < 0 {
			ok = it.Next()
			continue
		}
		acct := string(rest[:i])
		out = append(out, acct)
		ok = it.SeekGE(PrefixUpperBound(outboxPrefix(acct)))
	}
	return out, nil
}

// NewEventID returns a fresh event id, "evt_" and 22 base62 characters.
func NewEventID() string { return NewID("evt_", 22) }

func outboxPrefix(accountID string) []byte { return []byte(PrefixOutbox + accountID + "/") }

// OutboxKey is the key of an account's outbox event: e/<accountID>/<seq>.
func OutboxKey(accountID string, seq uint64) []byte {
	k := outboxPrefix(accountID)
	return binary.BigEndian.AppendUint64(k, seq)
}
