package nemesis

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// Target is what the workload needs of a cluster: its nodes' public URLs
// and how to sign orders and cancels on its chain.
type Target struct {
	// URLs are the nodes' public base URLs.
	URLs []string
	// Sign signs a resting order of maker with salt: the POST /v1/orders
	// body and the order's hash.
	Sign func(maker *ecdsa.PrivateKey, salt uint64) ([]byte, common.Hash)
	// CancelDigest is the EIP-712 digest a maker signs to cancel an
	// order.
	CancelDigest func(order common.Hash) common.Hash
}

// Workload is the clients of a campaign, each recording into History:
//
//   - submitters: new resting orders, each of a maker of its own (so the
//     per-maker limits never refuse them), round-robin over every node;
//   - a canceller: the latest accepted order not yet cancelled, by its
//     maker, on a random node;
//   - readers: an accepted order (and its fills) on a random node;
//   - a readiness prober: GET /readyz of every node;
//   - limit probes: a key of the free tier submitting faster than its
//     order limit (KeyLimit), and one maker submitting faster than the
//     per-maker limit (MakerLimit), round-robin.
//
// Every client asks every node whatever its readiness: a node cut off
// from the others is asked too, so the history shows what it answers.
// Each node has clients of its own, each waiting for its answers in turn,
// so a node that answers late (paused, cut off) holds up only its own.
type Workload struct {
	t       Target
	History *History
	// Key is the enterprise key of the submitters, canceller and readers;
	// FreeKey the rate-limited one.
	Key, FreeKey string
	// Rates: submits per second over all submitters, cancels, reads and
	// limit probes per second, the readiness probe's interval.
	SubmitRate, CancelRate, ReadRate float64
	KeyLimitRate, MakerLimitRate     float64
	ReadyEvery                       time.Duration

	client *http.Client
	stop   chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex
	makers   map[common.Hash]*ecdsa.PrivateKey
	accepted []common.Hash
	canceled map[common.Hash]bool
	salt     uint64
}

// NewWorkload returns a workload on t with the default rates: 30 submits,
// 5 cancels and 10 reads a second, limit probes at 1.5 and 2 a second,
// readiness every 200 ms.
func NewWorkload(t Target, key, freeKey string) *Workload {
	return &Workload{t: t, History: &History{}, Key: key, FreeKey: freeKey,
		SubmitRate: 30, CancelRate: 5, ReadRate: 10, KeyLimitRate: 1.5, MakerLimitRate: 2, ReadyEvery: 200 * time.Millisecond,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, IdleConnTimeout: 2 * time.Second}},
		stop:   make(chan struct{}), makers: map[common.Hash]*ecdsa.PrivateKey{}, canceled: map[common.Hash]bool{},
		salt: uint64(time.Now().UnixNano())}
}

// Start starts the clients: for each node a submitter, a canceller, a
// reader, the two limit probes and the readiness prober, each at its
// share of the rates.
func (w *Workload) Start() {
	n := float64(len(w.t.URLs))
	limitMaker := newKey()
	for i := range w.t.URLs {
		w.every(n/w.SubmitRate, func() { w.submit(i) })
		w.every(n/w.CancelRate, func() { w.cancel(i) })
		w.every(n/w.ReadRate, func() { w.read(i) })
		w.every(n/w.KeyLimitRate, func() { w.limit(OpKeyLimit, i, w.FreeKey, newKey()) })
		w.every(n/w.MakerLimitRate, func() { w.limit(OpMakerLimit, i, w.Key, limitMaker) })
		w.every(w.ReadyEvery.Seconds(), func() { w.ready(i) })
	}
}

// Stop stops the clients and waits for the requests in flight.
func (w *Workload) Stop() {
	close(w.stop)
	w.wg.Wait()
}

// every runs f every period seconds (jittered by ±10 %) until Stop.
func (w *Workload) every(period float64, f func()) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		d := time.Duration(period * float64(time.Second))
		for {
			select {
			case <-w.stop:
				return
			case <-time.After(d - d/10 + rand.N(d/5+1)):
			}
			f()
		}
	}()
}

func (w *Workload) nextSalt() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.salt++
	return w.salt
}

func newKey() *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		panic(err)
	}
	return k
}

// submit submits a new resting order of a maker of its own to node.
func (w *Workload) submit(node int) {
	maker := newKey()
	body, hash := w.t.Sign(maker, w.nextSalt())
	w.mu.Lock()
	w.makers[hash] = maker
	w.mu.Unlock()
	op := w.do(OpSubmit, node, http.MethodPost, "/v1/orders", w.Key, body, hash)
	if op.Status == http.StatusCreated {
		w.mu.Lock()
		w.accepted = append(w.accepted, hash)
		w.mu.Unlock()
	}
}

// limit submits a new resting order of maker with key to node (a limit
// probe).
func (w *Workload) limit(kind string, node int, key string, maker *ecdsa.PrivateKey) {
	body, hash := w.t.Sign(maker, w.nextSalt())
	w.do(kind, node, http.MethodPost, "/v1/orders", key, body, hash)
}

// cancel cancels, on node, the latest accepted order not cancelled yet.
func (w *Workload) cancel(node int) {
	w.mu.Lock()
	var hash common.Hash
	found := false
	for i := len(w.accepted) - 1; i >= 0 && i >= len(w.accepted)-50; i-- {
		if h := w.accepted[i]; !w.canceled[h] {
			hash, found = h, true
			w.canceled[h] = true
			break
		}
	}
	maker := w.makers[hash]
	w.mu.Unlock()
	if !found {
		return
	}
	d := w.t.CancelDigest(hash)
	sig, err := crypto.Sign(d[:], maker)
	if err != nil {
		panic(err)
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]string{"signature": hexutil.Encode(sig)})
	w.do(OpCancel, node, http.MethodDelete, "/v1/orders/"+hash.Hex(), w.Key, body, hash)
}

// read reads a random accepted order, and one in four times its fills,
// on node.
func (w *Workload) read(node int) {
	w.mu.Lock()
	if len(w.accepted) == 0 {
		w.mu.Unlock()
		return
	}
	hash := w.accepted[rand.N(len(w.accepted))]
	w.mu.Unlock()
	if rand.N(4) == 0 {
		w.do(OpFills, node, http.MethodGet, "/v1/orders/"+hash.Hex()+"/fills", w.Key, nil, hash)
		return
	}
	w.do(OpGet, node, http.MethodGet, "/v1/orders/"+hash.Hex(), w.Key, nil, hash)
}

// ready probes node i's readiness.
func (w *Workload) ready(i int) {
	w.do(OpReady, i, http.MethodGet, "/readyz", "", nil, common.Hash{})
}

// requestTimeout bounds every request: longer than any answer the API
// documents (a write's timeout and its last look), shorter than a pause.
const requestTimeout = 12 * time.Second

// do makes one request and records it.
func (w *Workload) do(kind string, node int, method, path, key string, body []byte, hash common.Hash) Op {
	op := Op{Kind: kind, Node: node, Hash: hash, Invoke: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, w.t.URLs[node]+path, bytes.NewReader(body))
	if err != nil {
		panic(err)
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := w.client.Do(req)
	if err != nil {
		op.Complete, op.Message = time.Now(), err.Error()
		w.History.Add(op)
		return op
	}
	data, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	op.Complete, op.Status = time.Now(), resp.StatusCode
	switch {
	case resp.StatusCode >= 300:
		var e struct {
			Error string `json:"error"`
			Code  string `json:"code"`
		}
		if json.Unmarshal(data, &e) != nil {
			e.Error = string(data)
		}
		op.Code, op.Message = e.Code, e.Error
	case kind == OpGet:
		var rec struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal(data, &rec)
		op.OrderStatus, op.Body = rec.Status, data
	}
	w.History.Add(op)
	return op
}

// mayHaveBeenStored reports whether an error message says the write's
// outcome is unknown.
func mayHaveBeenStored(msg string) bool {
	return strings.Contains(msg, "may or may not have been stored")
}

// String describes an operation in one line (for failures).
func (o Op) String() string {
	s := fmt.Sprintf("%s %s node%d %s→%s (%v)", o.Kind, short(o.Hash), o.Node+1,
		o.Invoke.Format("15:04:05.000"), o.Complete.Format("15:04:05.000"), o.Complete.Sub(o.Invoke).Round(time.Millisecond))
	if o.Status == 0 {
		return s + " no answer: " + o.Message
	}
	s += fmt.Sprintf(" %d", o.Status)
	if o.Code != "" {
		s += " " + o.Code + ": " + o.Message
	}
	if o.OrderStatus != "" {
		s += " " + o.OrderStatus
	}
	return s
}

func short(h common.Hash) string {
	if h == (common.Hash{}) {
		return "-"
	}
	return h.Hex()[:10]
}
