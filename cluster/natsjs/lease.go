package natsjs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Leases: one holder at a time for a named duty (the chain lifecycle's
// driver), on the LEASES stream. A holder's term is one message on
// lease.<name> with a per-message TTL: acquiring publishes conditional on
// the subject's last sequence being the one read (0 when the last term
// expired: JetStream removed its message), renewing publishes conditional
// on the holder's own last message. So two nodes can never both acquire or
// renew one term; a holder that stops renewing loses the lease when its
// message expires, and the next acquire wins. A holder's sequence (Seq)
// names its term and may serve as a fencing token.
//
// A holder counts itself the holder only until the publish's start plus
// the TTL (Held), which never outlasts the server's expiry of the message
// (measured from when the stream stored it). Correctness of what the holder
// does must still not rest on the lease: its writes are conditional on
// what they change.

// ErrLeaseLost is returned by Renew when the lease expired or another node
// holds it.
var ErrLeaseLost = errors.New("natsjs: the lease is lost")

// LeaseState is a lease's term as a watcher sees it.
type LeaseState struct {
	// Holder is the node holding the lease ("" once released).
	Holder string
	// Seq is the term's message sequence.
	Seq uint64
	// Expires is when the term ends unless renewed (the message's stored
	// time plus the TTL).
	Expires time.Time
}

// leaseTerm is the payload of a lease message.
type leaseTerm struct {
	Holder string        `json:"holder"`
	TTL    time.Duration `json:"ttl"`
}

// Lease is this node's handle on the lease name.
type Lease struct {
	n      *Node
	name   string
	holder string
	ttl    time.Duration

	mu    sync.Mutex
	seq   uint64
	until time.Time
}

// Lease returns the handle of lease name for holder (this node's name);
// ttl is truncated to whole seconds, at least one.
func (n *Node) Lease(name, holder string, ttl time.Duration) *Lease {
	ttl = max(ttl.Truncate(time.Second), time.Second)
	return &Lease{n: n, name: name, holder: holder, ttl: ttl}
}

// Acquire takes the lease if it is free (never taken, expired or
// released) or already this holder's, and reports whether this node holds
// it now. Another holder's live term answers false.
func (l *Lease) Acquire(ctx context.Context) (bool, error) {
	ctx, cancel := l.n.writeContext(ctx)
	defer cancel()
	m, found, err := l.n.leaderGet(ctx, leaseStream, leaseSubject(l.name), 0)
	if err != nil {
		return false, err
	}
	var expect uint64
	if found {
		var term leaseTerm
		if err := json.Unmarshal(m.Data, &term); err != nil {
			return false, fmt.Errorf("natsjs: lease %s: %w", l.name, err)
		}
		if term.Holder != "" && term.Holder != l.holder {
			return false, nil
		}
		expect = m.Seq
	}
	err = l.publish(ctx, expect, l.holder)
	if errors.Is(err, errCASConflict) {
		return false, nil
	}
	return err == nil, err
}

// Renew extends this holder's term by the TTL; ErrLeaseLost when its term
// expired or another node took the lease.
func (l *Lease) Renew(ctx context.Context) error {
	l.mu.Lock()
	seq := l.seq
	l.mu.Unlock()
	if seq == 0 {
		return ErrLeaseLost
	}
	ctx, cancel := l.n.writeContext(ctx)
	defer cancel()
	err := l.publish(ctx, seq, l.holder)
	if errors.Is(err, errCASConflict) {
		l.drop()
		return fmt.Errorf("%w: %v", ErrLeaseLost, err)
	}
	return err
}

// Release ends this holder's term at once (a last message without a
// holder), so a standby need not wait for the TTL.
func (l *Lease) Release(ctx context.Context) error {
	l.mu.Lock()
	seq := l.seq
	l.mu.Unlock()
	if seq == 0 {
		return nil
	}
	// This node stops counting itself the holder before the release can
	// let a standby take the lease: two nodes never both see Held.
	l.drop()
	ctx, cancel := l.n.writeContext(ctx)
	defer cancel()
	err := l.publish(ctx, seq, "")
	if errors.Is(err, errCASConflict) {
		return nil // already lost
	}
	return err
}

// publish writes a term of holder conditional on the subject's last
// sequence expect, and records it as this node's when holder is.
func (l *Lease) publish(ctx context.Context, expect uint64, holder string) error {
	data, err := json.Marshal(leaseTerm{Holder: holder, TTL: l.ttl})
	if err != nil {
		return err
	}
	start := time.Now()
	seq, err := l.n.publishCASOpts(ctx, leaseStream, leaseSubject(l.name), "lease:"+l.name+":"+nonce(), expect, data,
		jetstream.WithMsgTTL(l.ttl))
	if err != nil {
		return err
	}
	if holder != "" {
		l.mu.Lock()
		l.seq, l.until = seq, start.Add(l.ttl)
		l.mu.Unlock()
	}
	return nil
}

func (l *Lease) drop() {
	l.mu.Lock()
	l.seq, l.until = 0, time.Time{}
	l.mu.Unlock()
}

// Held reports whether this node holds the lease now: its last acquire or
// renew succeeded less than the TTL ago (counted from the publish's start).
func (l *Lease) Held() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq != 0 && time.Now().Before(l.until)
}

// Seq returns the sequence of this holder's current term (0: not held).
func (l *Lease) Seq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// TTL returns the lease's time to live.
func (l *Lease) TTL() time.Duration { return l.ttl }

// Watch sends every new term of the lease (acquired, renewed, released),
// starting with the current one, until ctx ends. A term's Expires passing
// without a newer term means the lease is free: try Acquire.
func (l *Lease) Watch(ctx context.Context) (<-chan LeaseState, error) {
	s, err := l.n.stream(leaseStream)
	if err != nil {
		return nil, err
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{leaseSubject(l.name)}, DeliverPolicy: jetstream.DeliverLastPerSubjectPolicy})
	if err != nil {
		return nil, fmt.Errorf("natsjs: watch lease %s: %w", l.name, err)
	}
	it, err := cons.Messages(pullOptions()...)
	if err != nil {
		return nil, fmt.Errorf("natsjs: watch lease %s: %w", l.name, err)
	}
	out := make(chan LeaseState, 16)
	go func() {
		<-ctx.Done()
		it.Stop()
	}()
	go l.watch(ctx, it, out)
	return out, nil
}

// watch decodes the lease messages into out until the iterator stops.
func (l *Lease) watch(ctx context.Context, it jetstream.MessagesContext, out chan<- LeaseState) {
	defer close(out)
	for {
		m, err := it.Next()
		if err != nil {
			return
		}
		meta, err := m.Metadata()
		if err != nil {
			continue
		}
		var term leaseTerm
		if json.Unmarshal(m.Data(), &term) != nil {
			continue
		}
		st := LeaseState{Holder: term.Holder, Seq: meta.Sequence.Stream, Expires: meta.Timestamp.Add(term.TTL)}
		select {
		case out <- st:
		case <-ctx.Done():
			return
		}
	}
}
