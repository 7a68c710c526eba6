package persistence

import "bytes"

// The key space of the Pebble store.
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE an existing prefix or field
// layout. A change needs a migration that rewrites every affected key, and a
// bump of SchemaVersion (migrate.go).
//
// Every key starts with a short ASCII prefix ending in '/', so a prefix scan
// never crosses into another record kind. Identifiers inside keys are ASCII
// (account and key ids are fixed-length base62), hashes are raw bytes, and
// numbers that must sort are big-endian fixed-width.
//
//	prefix  key                                   value
//	------  ------------------------------------  --------------------------------------------
//	m/      m/schema                              schema version, uint32 big-endian
//	        m/chain                               ChainIdentity, JSON: the chain the chain-derived
//	                                              records come from (chain_identity.go)
//	        m/restored                            the id of the backup the store was restored
//	                                              from (backup.go)
//	a/      a/<accountID>                         Account, JSON
//	k/      k/<keyID>                             KeyRecord, JSON (never the key itself)
//	h/      h/<sha256(key), 32 raw bytes>         keyID (ASCII): lookup of a presented key
//	x/      x/<accountID>/<keyID>                 empty: index of an account's keys
//	e/      e/<accountID>                         uint64 BE: the event outbox's cursor (outbox.go),
//	                                              the first seq of the account's event log not
//	                                              yet handed on by the webhook fan-out
//	n/      n/<accountID>/<seq uint64 BE>         <appended at, unix ns BE8><OutboxEvent JSON>: the
//	                                              event log (eventlog.go), written in the
//	                                              producer's batch, read by the webhook fan-out
//	                                              and the order stream; trimmed by count per
//	                                              account and by age, never at or past the cursor
//	w/      w/n/<endpointID>                      Endpoint, JSON (webhookstore/store.go)
//	        w/a/<accountID>/<endpointID>          empty: index of an account's endpoints
//	        w/d/<endpointID>/<at ns BE>/<eventID> Delivery, codec 1 (webhookstore/codec.go):
//	                                              a delivery and its attempts, no body
//	        w/p/<endpointID>/<at ns BE>/<eventID> empty: index of outstanding deliveries
//	        w/b/<accountID>/<eventID>             the event's webhook body (its event log row's
//	                                              JSON), once for the account's endpoints,
//	                                              deleted with their last delivery of it
//	        w/i/<accountID>/<sha256 hex>          IdempotentCreate, JSON: an endpoint create's
//	                                              answer under its Idempotency-Key, written
//	                                              with the endpoint (webhookstore/idempotency.go)
//	c/      c/cursor, c/b/, c/u/, c/l/, c/o/, c/n/ chain indexer: cursor, recent blocks, undo
//	                                              records, applied logs, per-order chain state,
//	                                              invalidated nonces (chainstore/chain.go,
//	                                              chainstore/orders.go)
//	f/      f/<orderHash 32><block BE8><log BE4>  Fill, JSON: fills from OrderFilled (chainstore/orders.go)
//	s/      s/<block BE8><log BE4>                SwapRecord, JSON: router swaps and fills (chainstore/market.go)
//	v/      v/<hour BE8><tokenIn 20><tokenOut 20> USD volume of a pair in an hour (chainstore/market.go)
//	t/      t/<orderHash 32>                      pair.State, JSON: a trailing order's peak, or the
//	                                              peak group holding it (actors/pair/state.go)
//	        t/<groupID 8 BE>                      pair.State, JSON: a peak group's peak
//	o/      o/<orderHash 32>                      orderstore.Record, codec 1 (orderstore/codec.go)
//	i/      i/<mask>[maker]<status>[type]<tinv 8><hash 32>  empty: list indexes of orders (4 each),
//	                                              same batch as the record (orderstore/keys.go)
//	r/      r/<maker 20>                          referrer (20 bytes): referral binding
//	                                              (orderstore/keys.go)
//	l/      l/<orderHash 32><txHash 32><log BE4>  one byte: order ledger, chain logs whose events
//	                                              were emitted, cancel origin (orderstore/ledger.go)
//	y/      y/<wallet 20>                         account id: the account a wallet is linked to
//	                                              (accountstore/wallets.go)
//	z/      z/<sha256(session token) 32>          Session, JSON: dashboard sessions
//	                                              (accountstore/sessions.go)
//	p/      p/a/<referrer 20><^time 8><^block 8><^log 4>  Accrual, binary: referral legs paid
//	        p/v/<referrer 20><maker 20><token 20>  uint256: referee's filled tokenIn
//	                                              (chainstore/platform.go)
//	q/      q/<referrer 20><maker 20>             boundAt, order hash: wallets bound to a referrer,
//	                                              same batch as r/ (orderstore/referees.go)
//	j/      j/<log name>                          uint64 BE: the last message of a replicated order
//	                                              log applied here, same batch (orderstore/apply.go)
//	g/      g/<log name>                          uint64 BE: the last message of the replicated
//	                                              shared-records log applied here (shared.go)
//	d/      d/<log name>/<closedAt ns BE 8><hash 32>  uint64 BE: the message of a replicated order
//	                                              log that closed the order, until the log's
//	                                              compaction removed its subject (orderstore/apply.go)
//	u/      u/<orderHash 32>                      FailedAttempt, JSON: the last fillOrder of the
//	                                              order that reverted on chain (chainstore/attempts.go)
//
// To add a record kind: pick an unused prefix, add a row to the table above
// and an entry to Prefixes (TestPrefixesDisjoint checks that no prefix is a
// prefix of another), write a key builder below, and keep the value codec
// next to the record's type with its own version byte or JSON tags. The
// prefixes of the records whose store is its own package are exported; the
// key builders live with that store.

// The prefixes of the account records (persistence/accountstore).
const (
	PrefixAccount    = "a/"
	PrefixKey        = "k/"
	PrefixKeyHash    = "h/"
	PrefixAccountKey = "x/"
	PrefixWallet     = "y/"
	PrefixSession    = "z/"
)

// PrefixWebhook is the prefix of the webhook records, the shared records
// besides the account records (persistence/webhookstore).
const PrefixWebhook = "w/"

// PrefixOutbox is the prefix of the event outbox's cursors (outbox.go),
// which the webhook fan-out moves over the event log.
const PrefixOutbox = "e/"

// The prefixes of the order records (persistence/orderstore): the records,
// their list indexes, the referral bindings by maker and the referees by
// referrer, the ledgers, and, in a cluster, the positions of the
// replicated order logs applied and the orders closed in them (which the
// snapshots and backups of this package read and detach).
const (
	PrefixOrder    = "o/"
	PrefixIndex    = "i/"
	PrefixBinding  = "r/"
	PrefixReferee  = "q/"
	PrefixLedger   = "l/"
	PrefixOrderLog = "j/"
	PrefixClosed   = "d/"
)

// The prefixes of the chain-derived records (persistence/chainstore): the
// indexer's bookkeeping and per-order chain state, fills, swaps, hourly
// volume, referral accruals and referee volume, failed fill attempts.
const (
	PrefixChain    = "c/"
	PrefixFill     = "f/"
	PrefixSwap     = "s/"
	PrefixVolume   = "v/"
	PrefixPlatform = "p/"
	PrefixAttempt  = "u/"
)

const (
	prefixMeta      = "m/"
	prefixTrigger   = "t/"
	prefixSharedLog = "g/"
)

// SchemaVersion is the version of the key layout written to m/schema.
const SchemaVersion uint32 = 6

// Prefixes lists every registered key prefix with what it holds, and
// whether its records are bound to one chain: derived from it (the
// indexer's state, fills, swaps, trigger state) or made for it and moved by
// it (orders, their indexes and ledgers). ResetChainBound clears those when
// the store's chain changes. Tests use the table to check the key space
// stays disjoint and that the reset clears exactly the chain-bound kinds.
var Prefixes = [...]struct {
	Prefix, Holds string
	ChainBound    bool
}{
	{prefixMeta, "store metadata (schema version, chain identity, the backup a store was restored from)", false},
	{PrefixAccount, "accounts", false},
	{PrefixKey, "API key records", false},
	{PrefixKeyHash, "API key hash to key id", false},
	{PrefixAccountKey, "account to key id index", false},
	{PrefixOutbox, "event outbox cursor per account", false},
	{eventLogPrefix, "event log per account (order stream)", false},
	{PrefixWebhook, "webhook endpoints, deliveries, their indexes, event bodies and idempotent creates", false},
	{PrefixChain, "chain indexer cursor, blocks, undo, applied logs, per-order chain state", true},
	{PrefixFill, "fills by order hash", true},
	{PrefixSwap, "router swaps and fills by position", true},
	{PrefixVolume, "hourly USD volume per pair", true},
	{prefixTrigger, "trailing peaks per order and per peak group", true},
	{PrefixOrder, "order records by hash", true},
	{PrefixIndex, "order list indexes (maker, status, type)", true},
	{PrefixBinding, "referral bindings by maker", false},
	{PrefixLedger, "order ledger: emitted chain logs, cancel origin", true},
	{PrefixWallet, "linked wallet to account", false},
	{PrefixSession, "dashboard sessions by token hash", false},
	{PrefixPlatform, "referral accruals and referee volume", true},
	{PrefixReferee, "referees by referrer", false},
	{PrefixOrderLog, "positions of the replicated order logs applied (cluster)", true},
	{prefixSharedLog, "positions of the replicated shared-records log applied (cluster)", false},
	{PrefixClosed, "closed orders due for the compaction of their replicated log (cluster)", true},
	{PrefixAttempt, "the last failed fill attempt per order", true},
}

func schemaKey() []byte { return []byte(prefixMeta + "schema") }

// PrefixUpperBound returns the smallest key greater than every key with
// prefix p, for use as an iterator's UpperBound.
func PrefixUpperBound(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}
