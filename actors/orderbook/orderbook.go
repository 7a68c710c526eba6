// Package orderbook holds the orderbook actors: one per pair, owning the
// open (pending and active) orders of the pair ordered by trigger price.
//
// Order actors tell a book about changes with events (OrderUpserted,
// OrderRemoved) sent without waiting; GET /v1/orderbook/{pair} asks the
// book for a page (PageRequest / PageResponse). Books are soft state: they
// are rebuilt from the order records at start (Books.Rebuild), so nothing
// here is persisted.
package orderbook

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Key is a position in a book: trigger price, then hash.
type Key struct {
	Price uint256.Int
	Hash  common.Hash
}

// less orders by price, then hash.
func (k Key) less(o Key) bool {
	if c := k.Price.Cmp(&o.Price); c != 0 {
		return c < 0
	}
	return bytes.Compare(k.Hash[:], o.Hash[:]) < 0
}

// Cursor renders k as an opaque cursor (128 hex digits).
func (k Key) Cursor() string {
	b := k.Price.Bytes32()
	return hex.EncodeToString(b[:]) + hex.EncodeToString(k.Hash[:])
}

// ParseCursor parses a cursor made by Key.Cursor.
func ParseCursor(s string) (Key, error) {
	var k Key
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 64 {
		return k, fmt.Errorf("cursor is not one this server issued")
	}
	k.Price.SetBytes32(b[:32])
	copy(k.Hash[:], b[32:])
	return k, nil
}

// PairKey is the canonical (lowercase) name of a pair's book.
func PairKey(tokenIn, tokenOut common.Address) string {
	b := make([]byte, 0, 2*(2+2*common.AddressLength)+1)
	b = append(b, "0x"...)
	b = hex.AppendEncode(b, tokenIn[:])
	b = append(b, "-0x"...)
	b = hex.AppendEncode(b, tokenOut[:])
	return string(b)
}

// OrderUpserted is the event of an order that opened or changed while open.
type OrderUpserted struct{ Entry *Entry }

// OrderRemoved is the event of an order that left the open set.
type OrderRemoved struct{ Hash common.Hash }

// PageRequest asks a book for up to Limit entries after After (nil = from
// the lowest trigger price).
type PageRequest struct {
	Limit int
	After *Key
}

// PageResponse is a page of a book; Next is nil at the end.
type PageResponse struct {
	Entries []Row
	Next    *Key
	Total   int
}

// bookActor owns one pair's open orders, sorted by Key.
type bookActor struct {
	books  *Books
	pair   string
	sorted index
	byHash map[[32]byte]*Entry
	peak   int // the most entries since byHash was last rebuilt
}

// Receive handles the book's messages.
func (b *bookActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *OrderUpserted:
		b.upsert(msg.Entry)
	case *OrderRemoved:
		b.remove(msg.Hash)
	case *PageRequest:
		ctx.Respond(b.page(msg))
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		b.books.log.Warn("orderbook: unexpected message", "type", fmt.Sprintf("%T", msg), "pair", b.pair)
	}
}

func (b *bookActor) upsert(e *Entry) {
	if old, ok := b.byHash[e.Hash]; ok {
		if old.Price.Eq(&e.Price) {
			*old = *e
			return
		}
		b.remove(e.Hash)
	}
	b.sorted.insert(e)
	b.byHash[e.Hash] = e
	b.peak = max(b.peak, len(b.byHash))
}

func (b *bookActor) remove(h common.Hash) {
	e, ok := b.byHash[h]
	if !ok {
		return
	}
	delete(b.byHash, h)
	b.sorted.remove(e)
	b.shrink()
}

// shrink rebuilds the hash map and the sorted runs at their present size
// once fewer than a quarter of the peak's entries remain (a Go map never
// gives back the capacity of its peak; runs thinned by removals merge).
func (b *bookActor) shrink() {
	if b.peak < 1024 || len(b.byHash) >= b.peak/4 {
		return
	}
	byHash := make(map[[32]byte]*Entry, len(b.byHash))
	for k, v := range b.byHash {
		byHash[k] = v
	}
	b.byHash, b.sorted, b.peak = byHash, b.sorted.compacted(), len(byHash)
}

func (b *bookActor) page(req *PageRequest) *PageResponse {
	var p pos
	if req.After != nil {
		p = b.sorted.find(*req.After)
		if e := b.sorted.at(p); e != nil && e.Key == *req.After {
			p = b.sorted.next(p)
		}
	}
	out := &PageResponse{Entries: make([]Row, 0, max(0, min(req.Limit, b.sorted.n))), Total: b.sorted.n}
	var last *Entry
	for e := b.sorted.at(p); e != nil && len(out.Entries) < req.Limit; e = b.sorted.at(p) {
		out.Entries = append(out.Entries, e.Row())
		last, p = e, b.sorted.next(p)
	}
	if last != nil && b.sorted.at(p) != nil {
		k := last.Key
		out.Next = &k
	}
	return out
}
