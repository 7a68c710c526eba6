package clustertest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Answer is one request of a load and what it got.
type Answer struct {
	// Hash and Body are the order and its signed body (POST /v1/orders).
	Hash common.Hash
	Body []byte
	// Node is the index of the node asked.
	Node int
	// Code is the HTTP status; 0 when no answer came within the client's
	// timeout (the error's text is in Message).
	Code int
	// ErrCode and Message are the error object's code and message (a
	// non-2xx answer); RetryAfter its Retry-After header.
	ErrCode, Message, RetryAfter string
	// Sent and At are when the request was sent and answered.
	Sent, At time.Time
}

// MayBeStored reports whether the answer leaves the order's fate unknown
// to the client (the API's outcome-unknown answers, or no answer):
// resubmitting the same signed order settles it, 201 or 409 both meaning
// stored.
func (a Answer) MayBeStored() bool {
	return a.Code == 0 || strings.Contains(a.Message, "may or may not have been stored")
}

// Post sends body to path on node i with key and returns the answer
// (status, error code and message, Retry-After); timeout bounds the wait.
func (h *Harness) Post(i int, path, key string, body []byte, timeout time.Duration) Answer {
	a := Answer{Node: i, Body: body, Sent: time.Now()}
	ctx, cancel := context.WithTimeout(h.ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.BaseURL(i)+path, bytes.NewReader(body))
	if err != nil {
		a.Message, a.At = err.Error(), time.Now()
		return a
	}
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	a.At = time.Now()
	if err != nil {
		a.Message = err.Error()
		return a
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	a.Code, a.RetryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
	if resp.StatusCode >= 300 {
		var e struct {
			Error string `json:"error"`
			Code  string `json:"code"`
		}
		if json.Unmarshal(data, &e) != nil {
			e.Error = string(data)
		}
		a.ErrCode, a.Message = e.Code, e.Error
	}
	return a
}

// Load is a steady submit load spread round-robin over the nodes that are
// up, as a load balancer that follows /readyz spreads it: each worker
// submits a new signed resting order, waits for the answer, pauses, and
// goes on with the next node. Each order is submitted once.
type Load struct {
	h       *Harness
	key     string
	orders  chan signedOrder
	up      []atomic.Bool
	next    atomic.Uint64
	stopc   chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	answers []Answer
}

type signedOrder struct {
	body []byte
	hash common.Hash
}

// StartLoad signs n resting orders of makers (in turn, salts from
// firstSalt) and starts workers that submit them with key, each pausing
// gap between its requests, until Stop or the orders run out.
func (h *Harness) StartLoad(c *Contracts, key string, makers []*ecdsa.PrivateKey, firstSalt uint64, n, workers int, gap time.Duration) *Load {
	h.t.Helper()
	l := &Load{h: h, key: key, orders: make(chan signedOrder, n), up: make([]atomic.Bool, len(h.Nodes)), stopc: make(chan struct{})}
	for i := range n {
		body, hash := c.Sign(h.t, Resting(makers[i%len(makers)], firstSalt+uint64(i)))
		l.orders <- signedOrder{body: body, hash: hash}
	}
	close(l.orders)
	for i := range l.up {
		l.up[i].Store(true)
	}
	for range workers {
		l.wg.Add(1)
		go l.work(gap)
	}
	return l
}

// SetUp marks node i as receiving requests (true) or not: the load
// balancer's view of the node.
func (l *Load) SetUp(i int, up bool) { l.up[i].Store(up) }

func (l *Load) work(gap time.Duration) {
	defer l.wg.Done()
	for o := range l.orders {
		select {
		case <-l.stopc:
			return
		default:
		}
		node := l.pick()
		a := l.h.Post(node, "/v1/orders", l.key, o.body, 30*time.Second)
		a.Hash = o.hash
		l.mu.Lock()
		l.answers = append(l.answers, a)
		l.mu.Unlock()
		select {
		case <-l.stopc:
			return
		case <-time.After(gap):
		}
	}
}

// pick returns the next node that is up, round-robin.
func (l *Load) pick() int {
	for {
		i := int(l.next.Add(1) % uint64(len(l.up)))
		if l.up[i].Load() {
			return i
		}
	}
}

// Stop stops the workers, waits for their requests in flight, and returns
// every answer in the order they came.
func (l *Load) Stop() []Answer {
	close(l.stopc)
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]Answer(nil), l.answers...)
	slices.SortStableFunc(out, func(a, b Answer) int { return a.At.Compare(b.At) })
	return out
}

// Count returns how many answers the load has had so far.
func (l *Load) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.answers)
}

// Accepted returns the answers 201 so far, in the order they came.
func (l *Load) Accepted() []Answer {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Answer
	for _, a := range l.answers {
		if a.Code == http.StatusCreated {
			out = append(out, a)
		}
	}
	return out
}

// Next returns the next node that is up, in the load's round-robin: other
// requests made alongside the load spread as its submits do.
func (l *Load) Next() int { return l.pick() }
