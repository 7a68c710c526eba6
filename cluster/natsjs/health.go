package natsjs

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// health follows how many other nodes this node's server has a route to,
// so a write can be refused at once, with nothing published, while a
// quorum of replicas cannot be reached (ErrUnavailable): the caller answers
// 503 with Retry-After instead of waiting for a publish that cannot be
// acknowledged. A write that passes the check may still time out (a peer
// paused, a leader election): that is the publish's own deadline.
type health struct {
	srv    *server.Server
	quorum int
	peers  atomic.Int32
	// seen is when each other node (by server name) last had a route
	// from this one.
	mu    sync.Mutex
	seen  map[string]time.Time
	stopc chan struct{}
	done  chan struct{}
}

// healthPoll is how often the routes are counted.
const healthPoll = 200 * time.Millisecond

func newHealth(srv *server.Server, replicas int) *health {
	h := &health{srv: srv, quorum: replicas/2 + 1, seen: map[string]time.Time{}, stopc: make(chan struct{}), done: make(chan struct{})}
	h.count()
	go h.run()
	return h
}

func (h *health) run() {
	defer close(h.done)
	t := time.NewTicker(healthPoll)
	defer t.Stop()
	for {
		select {
		case <-h.stopc:
			return
		case <-t.C:
			h.count()
		}
	}
}

// count stores the number of distinct servers this one has a route to.
func (h *health) count() {
	rz, err := h.srv.Routez(nil)
	if err != nil {
		return
	}
	seen := make(map[string]struct{}, len(rz.Routes))
	now := time.Now()
	h.mu.Lock()
	for _, r := range rz.Routes {
		seen[r.RemoteID] = struct{}{}
		if r.RemoteName != "" {
			h.seen[r.RemoteName] = now
		}
	}
	h.mu.Unlock()
	h.peers.Store(int32(len(seen)))
}

// RouteSeen returns when this node last had a route to the node named
// name (zero: never), as of the last count (every healthPoll).
func (n *Node) RouteSeen(name string) time.Time {
	n.health.mu.Lock()
	defer n.health.mu.Unlock()
	return n.health.seen[name]
}

// writable reports whether this node reaches enough others for a quorum
// of a stream's replicas.
func (h *health) writable() bool { return int(h.peers.Load())+1 >= h.quorum }

// Peers returns the number of other nodes this node has a route to.
func (n *Node) Peers() int { return int(n.health.peers.Load()) }

func (h *health) stop() {
	close(h.stopc)
	<-h.done
}
