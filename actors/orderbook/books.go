package orderbook

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Books finds or starts the book actor of a pair. It is safe for concurrent
// use.
type Books struct {
	system  *actor.ActorSystem
	log     *slog.Logger
	timeout time.Duration

	mu    sync.Mutex
	books map[string]*actor.PID
}

// New returns an empty set of books in system. timeout bounds a page
// request (default 5 s when zero).
func New(system *actor.ActorSystem, log *slog.Logger, timeout time.Duration) *Books {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return &Books{system: system, log: log.With("component", "orderbook"), timeout: timeout, books: make(map[string]*actor.PID)}
}

func (b *Books) pid(pair string) *actor.PID {
	b.mu.Lock()
	defer b.mu.Unlock()
	pid, ok := b.books[pair]
	if !ok {
		a := &bookActor{books: b, pair: pair, byHash: make(map[[32]byte]*Entry)}
		pid = b.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }))
		b.books[pair] = pid
	}
	return pid
}

// Upsert tells the pair's book that e is open (a new order, or a change of
// an open one). It does not wait.
func (b *Books) Upsert(pair string, e *Entry) {
	b.system.Root.Send(b.pid(pair), &OrderUpserted{Entry: e})
}

// Remove tells the pair's book that the order left the open set. It does
// not wait.
func (b *Books) Remove(pair string, hash [32]byte) {
	b.system.Root.Send(b.pid(pair), &OrderRemoved{Hash: hash})
}

// Page asks the pair's book for a page. A pair without a book answers an
// empty page without starting one.
func (b *Books) Page(ctx context.Context, pair string, limit int, after *Key) (*PageResponse, error) {
	b.mu.Lock()
	pid, ok := b.books[pair]
	b.mu.Unlock()
	if !ok {
		return &PageResponse{Entries: []Row{}}, nil
	}
	timeout := b.timeout
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(d))
	}
	res, err := b.system.Root.RequestFuture(pid, &PageRequest{Limit: limit, After: after}, timeout).Result()
	if err != nil {
		return nil, fmt.Errorf("orderbook: page of %s: %w", pair, err)
	}
	page, ok := res.(*PageResponse)
	if !ok {
		return nil, errors.New("orderbook: unexpected answer to a page request")
	}
	return page, nil
}
