// Package kindtest holds Network, a fake of the cluster's network for
// the tests of cluster kinds under the race detector.
package kindtest

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"

	"github.com/orderengine/orderengine/actors/kind"
)

// Network is a FAKE of cluster/members for tests: members in one process
// whose registries serve each other's requests directly, with the codec's
// bytes copied across as a real network would carry them. Placement is a
// hash of the identity over the members that have not been removed.
//
// It exists because several protoactor-go members in one process are
// never race-clean (protoactor's remote sets grpc's global logger on every
// start without synchronization): the tests of cluster kinds run their
// concurrent paths under the race detector over this network, and over the
// real cluster in cluster/members without it.
type Network struct {
	mu      sync.RWMutex
	members []*Member
	order   []int // the indexes of the members that own identities
	calls   int
}

// Member is one member of a Network: a kind.Placement.
type Member struct {
	net      *Network
	index    int
	mu       sync.RWMutex
	handlers map[string]Handler
	down     bool
}

// Handler serves a kind's requests on the member that owns the identity
// (kind.Registry.Serve, or a kind's Serve).
type Handler interface {
	Serve(ctx context.Context, key string, req kind.Message, oneWay bool) (kind.Message, error)
}

// ErrDown is the error of a call to a member that is down.
var ErrDown = errors.New("kindtest: the member is down")

// NewNetwork returns a network of n members.
func NewNetwork(n int) *Network {
	net := &Network{}
	for i := range n {
		net.members = append(net.members, &Member{net: net, index: i, handlers: map[string]Handler{}})
		net.order = append(net.order, i)
	}
	return net
}

// Member returns member i.
func (n *Network) Member(i int) *Member { return n.members[i] }

// Calls returns how many requests crossed the network.
func (n *Network) Calls() int {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.calls
}

// SetDown makes member i unreachable (true) or reachable again: it still
// owns its identities until Remove, as a crashed member does until the
// provider notices.
func (n *Network) SetDown(i int, down bool) {
	m := n.members[i]
	m.mu.Lock()
	m.down = down
	m.mu.Unlock()
}

// Remove takes member i out of the placement (the cluster dropped it).
func (n *Network) Remove(i int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.order = slices.DeleteFunc(n.order, func(j int) bool { return j == i })
}

// Host makes m serve kind with h.
func (m *Member) Host(kindName string, h Handler) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.handlers[kindName] = h
}

// Owner returns the index of the member that owns key.
func (n *Network) Owner(key string) int {
	n.mu.RLock()
	defer n.mu.RUnlock()
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return n.order[int(h.Sum32()%uint32(len(n.order)))]
}

// Owns implements kind.Placement.
func (m *Member) Owns(_ string, key string) bool { return m.net.Owner(key) == m.index }

// Call implements kind.Placement: the owner's handler serves a copy of
// req, and the caller gets a copy of its answer.
func (m *Member) Call(ctx context.Context, kindName, key string, req kind.Message) (kind.Message, error) {
	return m.net.deliver(ctx, kindName, key, req, false)
}

// Tell implements kind.Placement.
func (m *Member) Tell(ctx context.Context, kindName, key string, msg kind.Message) error {
	_, err := m.net.deliver(ctx, kindName, key, msg, true)
	return err
}

func (n *Network) deliver(ctx context.Context, kindName, key string, req kind.Message, oneWay bool) (kind.Message, error) {
	owner := n.members[n.Owner(key)]
	owner.mu.RLock()
	h, down := owner.handlers[kindName], owner.down
	owner.mu.RUnlock()
	if down {
		return kind.Message{}, fmt.Errorf("%w: member %d", ErrDown, owner.index)
	}
	if h == nil {
		return kind.Message{}, fmt.Errorf("kindtest: member %d hosts no %s", owner.index, kindName)
	}
	n.mu.Lock()
	n.calls++
	n.mu.Unlock()
	ans, err := h.Serve(ctx, key, copyMessage(req), oneWay)
	if err != nil {
		return kind.Message{}, err
	}
	return copyMessage(ans), nil
}

func copyMessage(m kind.Message) kind.Message {
	return kind.Message{Type: m.Type, Data: slices.Clone(m.Data)}
}
