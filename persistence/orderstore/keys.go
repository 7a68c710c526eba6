package orderstore

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// The order records, their secondary indexes and referral bindings.
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE (see persistence/keys.go).
//
//	prefix  key                                                   value
//	------  ----------------------------------------------------  ---------------------------
//	o/      o/<orderHash 32>                                      Record, codec 1 (codec.go)
//	i/      i/<mask 1>[maker 20][status 1][type 1]<tinv 8><hash 32>  empty: list indexes
//	r/      r/<maker 20>                                          referrer, 20 raw bytes
//
// An index key's mask says which filter fields it carries (bit 0 maker,
// bit 1 status, bit 2 order type). Every mask written carries the status
// (IndexMasks: status; maker+status; status+type; maker+status+type), so a
// list with a status filter is one range scan and a list without one
// merges the six status ranges of its mask by key suffix (keyset order is
// the suffix order in every range). The status byte is the Status value,
// the type byte the chain.Class value. tinv is ^createdAt (unix
// nanoseconds), big-endian: newest first. Every order has exactly the four
// index keys of its current status, written in the same batch as the
// record; a status change deletes them and writes the new status's four in
// the same batch as the new record. Fills (f/) are the chain indexer's
// rows (persistence/chainstore). The prefixes are the core's
// (persistence.PrefixOrder, PrefixIndex, PrefixBinding).

// The index mask bits.
const (
	IndexMaker  = 1 << 0
	IndexStatus = 1 << 1
	IndexType   = 1 << 2
)

// IndexMasks are the masks every order has a key under: the four that
// carry the status.
var IndexMasks = [...]byte{IndexStatus, IndexStatus | IndexMaker, IndexStatus | IndexType, IndexStatus | IndexMaker | IndexType}

// Key is the o/ key of an order.
func Key(hash common.Hash) []byte {
	k := make([]byte, 0, len(persistence.PrefixOrder)+32)
	k = append(k, persistence.PrefixOrder...)
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

// ParseCursor parses a keyset cursor of List (80 hex digits: an index
// entry's suffix).
func ParseCursor(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 40 {
		return nil, fmt.Errorf("cursor is not one this server issued")
	}
	return b, nil
}

// orderIndexPrefix is the key prefix of mask with the filter fields it carries.
func orderIndexPrefix(mask byte, maker common.Address, status Status, class chain.Class) []byte {
	return appendIndexPrefix(make([]byte, 0, 2+1+20+2+40), mask, maker, status, class)
}

// appendIndexPrefix is orderIndexPrefix appended to k.
func appendIndexPrefix(k []byte, mask byte, maker common.Address, status Status, class chain.Class) []byte {
	k = append(k, persistence.PrefixIndex...)
	k = append(k, mask)
	if mask&IndexMaker != 0 {
		k = append(k, maker[:]...)
	}
	if mask&IndexStatus != 0 {
		k = append(k, byte(status))
	}
	if mask&IndexType != 0 {
		k = append(k, byte(class))
	}
	return k
}

// orderIndexKeys returns the four index keys of rec with the given status.
// The keys share one allocation (they are written together).
func orderIndexKeys(rec *Record, status Status) [][]byte {
	suffix := IndexEntry{CreatedAt: rec.CreatedAt, Hash: rec.Hash}.suffix()
	const most = 2 + 1 + 20 + 2 + 40 // the longest key: maker, status and type
	buf := make([]byte, 0, len(IndexMasks)*most)
	keys := make([][]byte, 0, len(IndexMasks))
	for _, mask := range IndexMasks {
		start := len(buf)
		buf = appendIndexPrefix(buf, mask, rec.Order.Maker, status, rec.Class)
		buf = append(buf, suffix...)
		keys = append(keys, buf[start:len(buf):len(buf)])
	}
	return keys
}

func refereeKey(maker common.Address) []byte {
	k := make([]byte, 0, len(persistence.PrefixBinding)+20)
	k = append(k, persistence.PrefixBinding...)
	return append(k, maker[:]...)
}
