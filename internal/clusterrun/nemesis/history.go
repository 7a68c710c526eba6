// Package nemesis tests a cluster of orderengine processes the way Jepsen
// and etcd's robustness tests do: clients record every request and answer
// with its times into a History while a nemesis injects faults (kill -9,
// SIGSTOP, a node isolated, a ring partition, packet loss) into nodes that
// run in network namespaces of their own (internal/netns); after the
// faults have healed, Check decides whether the history is one the
// engine's promises allow, and Porcupine checks each order's history for
// linearizability.
//
// The package's tests run the campaign: TestNemesis in `make test` (one
// round of every fault class), and TestNemesisCampaign, longer faults in
// random order (`make nemesis`, not in CI).
package nemesis

import (
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// The kinds of operation a history records.
const (
	OpSubmit = "submit" // POST /v1/orders of a new signed order
	OpCancel = "cancel" // DELETE /v1/orders/{hash} with the maker's signature
	OpGet    = "get"    // GET /v1/orders/{hash}
	OpFills  = "fills"  // GET /v1/orders/{hash}/fills
	// OpKeyLimit and OpMakerLimit are POST /v1/orders of the limit probes:
	// the free key's, and one maker's with the enterprise key.
	OpKeyLimit   = "key-limit"
	OpMakerLimit = "maker-limit"
	OpReady      = "ready" // GET /readyz
)

// Op is one request and its answer.
type Op struct {
	// Kind is one of the Op constants; Node the index of the node asked.
	Kind string
	Node int
	// Hash is the order the request is about.
	Hash common.Hash
	// Invoke and Complete are when the request was sent and answered (or
	// given up).
	Invoke, Complete time.Time
	// Status is the HTTP status, 0 when no answer came.
	Status int
	// Code and Message are the error's code and message (an answer other
	// than 2xx), or the client's error when no answer came.
	Code, Message string
	// OrderStatus is the order's status in a GET answer; Body the
	// answer's body (GET).
	OrderStatus string
	Body        []byte
}

// Unknown reports whether the answer leaves the write's outcome unknown to
// the client: no answer, or an answer saying the order may or may not
// have been stored.
func (o Op) Unknown() bool {
	return o.Status == 0 || o.Status >= 500 && !o.NothingStored()
}

// NothingStored reports whether a failed submit says that nothing was
// stored (503 NO_QUORUM without "may").
func (o Op) NothingStored() bool {
	return o.Status == http.StatusServiceUnavailable && o.Code == "NO_QUORUM" && !mayHaveBeenStored(o.Message)
}

// History is every operation the clients made, in any order. It is safe
// for concurrent use.
type History struct {
	mu  sync.Mutex
	ops []Op
}

// Add records op.
func (h *History) Add(op Op) {
	h.mu.Lock()
	h.ops = append(h.ops, op)
	h.mu.Unlock()
}

// Ops returns the operations, ordered by completion.
func (h *History) Ops() []Op {
	h.mu.Lock()
	out := slices.Clone(h.ops)
	h.mu.Unlock()
	slices.SortStableFunc(out, func(a, b Op) int { return a.Complete.Compare(b.Complete) })
	return out
}

// Accepted returns the orders answered 201, with the first such answer.
func (h *History) Accepted() map[common.Hash]Op {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[common.Hash]Op{}
	for _, o := range h.ops {
		if o.Kind == OpSubmit && o.Status == http.StatusCreated {
			if prev, ok := out[o.Hash]; !ok || o.Complete.Before(prev.Complete) {
				out[o.Hash] = o
			}
		}
	}
	return out
}

// Fault is one fault the nemesis injected, from Start to End (when it
// healed: SIGCONT, the rules removed, the node ready again after a kill).
type Fault struct {
	// Class is the fault's class (kill, pause, isolate-leader,
	// isolate-follower, ring, loss).
	Class string
	// Nodes are the nodes it hit: the killed, paused or isolated node, or
	// the two nodes of a ring's cut. Minority are the nodes cut off from
	// a majority for the whole fault (an isolated node).
	Nodes, Minority []int
	Start, End      time.Time
}

// Covers reports whether t falls within the fault, widened by grace after
// its end.
func (f Fault) Covers(t time.Time, grace time.Duration) bool {
	return !t.Before(f.Start) && !t.After(f.End.Add(grace))
}
