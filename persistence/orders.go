package persistence

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Orders, their secondary indexes, their fills and referral bindings.
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE (see keys.go).
//
//	prefix  key                                                   value
//	------  ----------------------------------------------------  ---------------------------
//	o/      o/<orderHash 32>                                      OrderRecord, JSON (the API's
//	                                                              order detail, minus "funded")
//	i/      i/<mask 1>[maker 20][status 1][type 1]<tinv 8><hash 32>  empty: list indexes
//	f/      f/<orderHash 32><blockNumber 8 BE><logIndex 4 BE>     OrderFill, JSON
//	r/      r/<maker 20>                                          referrer, 20 raw bytes
//
// An index key's mask says which filter fields it carries (bit 0 maker,
// bit 1 status, bit 2 order type). Every mask written carries the status
// (IndexMasks: status; maker+status; status+type; maker+status+type), so a
// list with a status filter is one range scan and a list without one
// merges the six status ranges of its mask by key suffix (keyset order is
// the suffix order in every range). tinv is ^createdAt (unix nanoseconds),
// big-endian: newest first. Every order has exactly the four index keys of
// its current status, written in the same batch as the record; a status
// change deletes them and writes the new status's four in the same batch
// as the new record. (Schema 1 also wrote the four masks without the
// status; schema 2 dropped them: fewer keys per order halves the memtable
// inserts of a submit. migrate.go deletes them from an older store.)
const (
	ordPrefixOrder = "o/"
	ordPrefixIndex = "i/"
	// ordPrefixFill is keys.go's f/ (fills are written by the chain
	// indexer with this same layout; orders only read them and write them
	// through Change.Fills).
	ordPrefixFill    = "f/"
	ordPrefixReferee = "r/"
)

// The index mask bits.
const (
	IndexMaker  = 1 << 0
	IndexStatus = 1 << 1
	IndexType   = 1 << 2
)

// IndexMasks are the masks every order has a key under: the four that
// carry the status.
var IndexMasks = [...]byte{IndexStatus, IndexStatus | IndexMaker, IndexStatus | IndexType, IndexStatus | IndexMaker | IndexType}

// orderStatuses lists the statuses in index-code order.
var orderStatuses = [...]string{StatusPending, StatusActive, StatusFilled, StatusCancelled, StatusExpired, StatusFailed}

// Order statuses of contract.md section 3.
const (
	StatusPending   = "pending"
	StatusActive    = "active"
	StatusFilled    = "filled"
	StatusCancelled = "cancelled"
	StatusExpired   = "expired"
	StatusFailed    = "failed"
)

var orderStatusCodes = map[string]byte{
	StatusPending: 1, StatusActive: 2, StatusFilled: 3, StatusCancelled: 4, StatusExpired: 5, StatusFailed: 6,
}

var orderTypeCodes = map[string]byte{"limit": 1, "stop_loss": 2, "take_profit": 3, "dca": 4, "trailing": 5}

// OrderStatusCode returns the index byte of status (0 when unknown).
func OrderStatusCode(status string) byte { return orderStatusCodes[status] }

// OrderTypeCode returns the index byte of an order type (0 when unknown).
func OrderTypeCode(orderType string) byte { return orderTypeCodes[orderType] }

// OrderStatusOpen reports whether status is open (pending or active).
func OrderStatusOpen(status string) bool { return status == StatusPending || status == StatusActive }

// OrderStatusTerminal reports whether status is final.
func OrderStatusTerminal(status string) bool {
	return status == StatusFilled || status == StatusCancelled || status == StatusExpired || status == StatusFailed
}

// SignedOrder is the signed v7.1 struct as the API shows it: addresses
// EIP-55, amounts decimal strings, salt 0x-hex.
type SignedOrder struct {
	Salt             string `json:"salt"`
	Maker            string `json:"maker"`
	Receiver         string `json:"receiver"`
	TokenIn          string `json:"tokenIn"`
	TokenOut         string `json:"tokenOut"`
	AmountIn         string `json:"amountIn"`
	TriggerPrice     string `json:"triggerPrice"`
	TriggerAmountOut string `json:"triggerAmountOut"`
	MakerTraits      string `json:"makerTraits"`
	Referrer         string `json:"referrer"`
	ReferralFeePpm   uint32 `json:"referralFeePpm"`
}

// DCAParams are a dca order's parameters (from its signed traits).
type DCAParams struct {
	IntervalSeconds uint32 `json:"intervalSeconds"`
	TotalExecutions uint16 `json:"totalExecutions"`
	TotalAmountIn   string `json:"totalAmountIn"`
	FlexibilityPpm  uint32 `json:"flexibilityPpm"`
	ShortCircuit    bool   `json:"shortCircuit"`
	PriceGated      bool   `json:"priceGated"`
}

// TrailingParams are a trailing order's parameters.
type TrailingParams struct {
	TrailPpm         uint32  `json:"trailPpm"`
	DesignatedKeeper *string `json:"designatedKeeper"`
}

// OrderRecord is an order's whole state: the signed order and what the
// engine knows about it. Its JSON is the body of GET /v1/orders/{hash}
// (the reader adds "funded"), so the field names are the API's.
type OrderRecord struct {
	OrderHash       string          `json:"orderHash"`
	OrderType       string          `json:"orderType"`
	Status          string          `json:"status"`
	Pair            string          `json:"pair"`
	Order           SignedOrder     `json:"order"`
	Signature       string          `json:"signature"`
	FilledAmountIn  string          `json:"filledAmountIn"`
	FilledAmountOut string          `json:"filledAmountOut"`
	Executions      int             `json:"executions"`
	DCA             *DCAParams      `json:"dca,omitempty"`
	Trailing        *TrailingParams `json:"trailing,omitempty"`
	TriggeredAt     *time.Time      `json:"triggeredAt"`
	Stalled         bool            `json:"stalled"`
	Reason          string          `json:"reason,omitempty"`
	RevertName      string          `json:"revertName,omitempty"`
	// AccountID is the account whose key submitted the order; its events
	// go to that account's outbox.
	AccountID string    `json:"accountId"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// OrderFill is one on-chain execution of an order (the router's OrderFilled).
type OrderFill struct {
	TxHash      string `json:"txHash"`
	BlockNumber uint64 `json:"blockNumber"`
	LogIndex    uint32 `json:"logIndex"`
	AmountIn    string `json:"amountIn"`
	AmountOut   string `json:"amountOut"`
	ProtocolFee string `json:"protocolFee"`
	ReferralFee string `json:"referralFee"`
	KeeperFee   string `json:"keeperFee"`
	Keeper      string `json:"keeper"`
	Timestamp   int64  `json:"timestamp"`
}

// OrderKey is the o/ key of an order.
func OrderKey(hash common.Hash) []byte {
	k := make([]byte, 0, len(ordPrefixOrder)+32)
	k = append(k, ordPrefixOrder...)
	return append(k, hash[:]...)
}

// IndexEntry is the part of an index key after the filter fields: the
// keyset position of an order in every list.
type IndexEntry struct {
	CreatedAt time.Time
	Hash      common.Hash
}

// suffix is tinv (8) and the hash (32).
func (e IndexEntry) suffix() []byte {
	b := make([]byte, 0, 40)
	b = binary.BigEndian.AppendUint64(b, ^uint64(e.CreatedAt.UnixNano()))
	return append(b, e.Hash[:]...)
}

// Cursor renders e as an opaque keyset cursor (80 hex digits).
func (e IndexEntry) Cursor() string { return hex.EncodeToString(e.suffix()) }

// ParseCursor parses a cursor made by IndexEntry.Cursor.
func ParseCursor(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 40 {
		return nil, fmt.Errorf("cursor is not one this server issued")
	}
	return b, nil
}

// orderIndexPrefix is the key prefix of mask with the filter fields it carries.
func orderIndexPrefix(mask byte, maker common.Address, status, typ byte) []byte {
	k := make([]byte, 0, 2+1+20+2+40)
	k = append(k, ordPrefixIndex...)
	k = append(k, mask)
	if mask&IndexMaker != 0 {
		k = append(k, maker[:]...)
	}
	if mask&IndexStatus != 0 {
		k = append(k, status)
	}
	if mask&IndexType != 0 {
		k = append(k, typ)
	}
	return k
}

// orderIndexKeys returns the four index keys of rec with the given status.
func orderIndexKeys(rec *OrderRecord, status string) ([][]byte, error) {
	hash, maker, err := orderRecordIDs(rec)
	if err != nil {
		return nil, err
	}
	return orderIndexKeysOf(rec, hash, maker, status)
}

// orderIndexKeysOf is orderIndexKeys with rec's ids already parsed.
func orderIndexKeysOf(rec *OrderRecord, hash common.Hash, maker common.Address, status string) ([][]byte, error) {
	sc, tc := OrderStatusCode(status), OrderTypeCode(rec.OrderType)
	if sc == 0 || tc == 0 {
		return nil, fmt.Errorf("persistence: order %s has unknown status %q or type %q", rec.OrderHash, status, rec.OrderType)
	}
	suffix := IndexEntry{CreatedAt: rec.CreatedAt, Hash: hash}.suffix()
	keys := make([][]byte, 0, len(IndexMasks))
	for _, mask := range IndexMasks {
		keys = append(keys, append(orderIndexPrefix(mask, maker, sc, tc), suffix...))
	}
	return keys, nil
}

// orderRecordIDs parses the record's hash and maker.
func orderRecordIDs(rec *OrderRecord) (h common.Hash, maker common.Address, err error) {
	hs, ms := ordTrim0x(rec.OrderHash), ordTrim0x(rec.Order.Maker)
	if len(hs) != 2*common.HashLength {
		return h, maker, fmt.Errorf("persistence: bad order hash %q", rec.OrderHash)
	}
	if _, err := hex.Decode(h[:], []byte(hs)); err != nil {
		return h, maker, fmt.Errorf("persistence: bad order hash %q", rec.OrderHash)
	}
	if len(ms) != 2*common.AddressLength {
		return h, maker, fmt.Errorf("persistence: order %s has bad maker %q", rec.OrderHash, rec.Order.Maker)
	}
	if _, err := hex.Decode(maker[:], []byte(ms)); err != nil {
		return h, maker, fmt.Errorf("persistence: order %s has bad maker %q", rec.OrderHash, rec.Order.Maker)
	}
	return h, maker, nil
}

func ordTrim0x(s string) string {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return s[2:]
	}
	return s
}

func orderFillPrefix(hash common.Hash) []byte {
	k := make([]byte, 0, len(ordPrefixFill)+32+12)
	k = append(k, ordPrefixFill...)
	return append(k, hash[:]...)
}

func orderFillKey(hash common.Hash, f *OrderFill) []byte {
	k := orderFillPrefix(hash)
	k = binary.BigEndian.AppendUint64(k, f.BlockNumber)
	return binary.BigEndian.AppendUint32(k, f.LogIndex)
}

func refereeKey(maker common.Address) []byte {
	k := make([]byte, 0, len(ordPrefixReferee)+20)
	k = append(k, ordPrefixReferee...)
	return append(k, maker[:]...)
}
