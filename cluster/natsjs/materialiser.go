package natsjs

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Feed is told of every order transition this node's store applied, in
// stream order per partition (so in version order per order), after the
// write and before any writer waiting for it is released: the engine's
// change feed (its maker and pair actors). Its arguments follow
// actors/order.Feed.
type Feed func(prev orderstore.Status, rec *orderstore.Record, bind *common.Address)

// Materialiser applies every order stream, on every node, to the node's
// store (orderstore.ApplyBatch: the same writes as a local append, with
// the stream position in the same batch), and tells the feed. Every read
// of orders then stays local, and every node's pair and maker actors see
// every order, whichever node accepted it.
type Materialiser struct {
	n      *Node
	orders *orderstore.Store
	feed   Feed
	// followers holds one follower per partition once Start has run.
	followers atomic.Pointer[[]*follower]
}

// NewMaterialiser returns the materialiser of the order streams into
// orders; feed may be nil.
func NewMaterialiser(n *Node, orders *orderstore.Store, feed Feed) *Materialiser {
	return &Materialiser{n: n, orders: orders, feed: feed}
}

// Start resumes every partition after the position the store holds. Call
// it after Setup and after the engine has loaded the store's open orders
// into its actors (the feed then only carries what is new).
func (m *Materialiser) Start(ctx context.Context) error {
	var followers []*follower
	for p := range m.n.OrderPartitions() {
		name := orderStream(p)
		from, err := m.orders.LogPosition(name)
		if err != nil {
			return err
		}
		f := newFollower(m.n, name, from, func(msgs []record) error { return m.apply(name, msgs) })
		if err := f.start(ctx); err != nil {
			return err
		}
		followers = append(followers, f)
		m.n.onClose(f.stop)
		m.n.addFollower(f)
	}
	m.followers.Store(&followers)
	return nil
}

// apply writes one batch of partition stream's transitions and tells the
// feed what changed.
func (m *Materialiser) apply(stream string, msgs []record) error {
	a := m.orders.BeginApply(stream)
	defer a.Close()
	var last uint64
	for _, msg := range msgs {
		t, err := orderstore.DecodeTransition(msg.data)
		if err != nil {
			return fmt.Errorf("natsjs: %s: %w", msg.subject, err)
		}
		if _, err := a.Add(t, msg.seq); err != nil {
			return err
		}
		last = msg.seq
	}
	changes, err := a.Commit(last)
	if err != nil {
		return err
	}
	if m.feed != nil {
		for _, c := range changes {
			m.feed(c.Prev, c.Record, c.Bind)
		}
	}
	return nil
}

// WaitApplied returns once partition p's message seq is in this node's
// store (and told to the feed).
func (m *Materialiser) WaitApplied(ctx context.Context, p int, seq uint64) error {
	fs := m.followers.Load()
	if fs == nil || p < 0 || p >= len(*fs) {
		return fmt.Errorf("natsjs: partition %d is not followed (the materialiser has not started)", p)
	}
	return (*fs)[p].waitApplied(ctx, seq)
}

// started reports whether Start has run.
func (m *Materialiser) started() bool { return m.followers.Load() != nil }
