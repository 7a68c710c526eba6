package keeper

import (
	"context"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/internal/testport"
)

// hungNode is a FAKE node, for what cannot exist here: a JSON-RPC endpoint
// that accepts every request and never answers (a node stuck in a sync or
// behind a dead load balancer). It counts the requests it received.
func hungNode(t *testing.T) (url string, requests *atomic.Int64) {
	t.Helper()
	requests = new(atomic.Int64)
	stop := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(func() { close(stop); hs.Close() })
	return hs.URL, requests
}

// A node that never answers does not freeze the keeper: every node call
// has a deadline (CallTimeout), the step fails, is logged, and the next
// poll tries again.
func TestRunnerKeepsPollingWhenTheNodeHangs(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	url, requests := hungNode(t)
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	src := func(context.Context, common.Address, string) ([]Item, string, error) { return nil, "", nil }
	r := NewRunner(client, e.Keeper.Key, src, RunnerOptions{})
	r.CallTimeout = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx, 10*time.Millisecond); close(done) }()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(15 * time.Second); requests.Load() < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("the keeper asked the hung node %d times in 15 s: it is stuck on an unanswered call", requests.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// While the node is down (nothing listens on its port) a step fails and is
// logged without taking a page from the list: the pages the keeper could
// not act on are still ahead of it when the node is back, and the API is
// not asked for pages the keeper would drop.
func TestRunnerKeepsItsPlaceWhileTheNodeIsDown(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	down, err := ethclient.Dial("http://127.0.0.1:" + strconv.Itoa(testport.Port(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer down.Close()
	var asked []string
	r := NewRunner(e.Client.(Client), e.Keeper.Key, threePages(&asked), RunnerOptions{})
	if _, err := r.Step(context.Background()); err != nil { // takes the first page
		t.Fatal(err)
	}
	r.client = down
	for range 2 {
		if _, err := r.Step(context.Background()); err == nil {
			t.Fatal("a step succeeded with the node down")
		}
	}
	r.client = e.Client.(Client)
	if _, err := r.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(asked, ","); got != ",0xa" {
		t.Fatalf("cursors asked: %q, want the second page once, after the outage", got)
	}
}

// laggingNode is a FAKE for what cannot exist here: a node (typically
// several behind a load balancer) whose pending state does not show the
// transaction it just accepted, so its pending nonce is the latest block's.
// Everything else is the real simulated chain.
type laggingNode struct{ Client }

func (n laggingNode) PendingNonceAt(ctx context.Context, a common.Address) (uint64, error) {
	return n.Client.(interface {
		NonceAt(context.Context, common.Address, *big.Int) (uint64, error)
	}).NonceAt(ctx, a, nil)
}

// Several transactions in one step take consecutive nonces from the
// keeper's own count, not each from the node's pending nonce: behind a
// node whose pending view lags, the second fill would reuse the first's
// nonce and be refused.
func TestRunnerNumbersTheTransactionsOfAStep(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	var items []Item
	var hashes []common.Hash
	for i := range 3 {
		o, sig, h := e.LimitOrder(int64(i+1)*1_000_000, uint64(30+i))
		items = append(items, Item{Listing: Listing{OrderHash: h.Hex()}, Tx: TxData{To: e.D.Router.Hex(), Data: hexutil.Encode(e.FillData(o, sig, int64(i+1)*1_000_000))}})
		hashes = append(hashes, h)
	}
	src := func(context.Context, common.Address, string) ([]Item, string, error) { return items, "", nil }
	r := NewRunner(laggingNode{e.Client.(Client)}, e.Keeper.Key, src, RunnerOptions{})
	sent, err := r.Step(context.Background())
	if err != nil || len(sent) != 3 {
		t.Fatalf("sent %d of 3 (%v)", len(sent), err)
	}
	for i := 1; i < len(sent); i++ {
		if sent[i].Nonce() != sent[0].Nonce()+uint64(i) {
			t.Fatalf("nonces %d, %d, %d", sent[0].Nonce(), sent[1].Nonce(), sent[2].Nonce())
		}
	}
	// A step before the block is mined continues the count (the node
	// still answers the latest block's nonce).
	o, sig, h := e.LimitOrder(4_000_000, 40)
	items = []Item{{Listing: Listing{OrderHash: h.Hex()}, Tx: TxData{To: e.D.Router.Hex(), Data: hexutil.Encode(e.FillData(o, sig, 4_000_000))}}}
	hashes = append(hashes, h)
	more, err := r.Step(context.Background())
	if err != nil || len(more) != 1 || more[0].Nonce() != sent[2].Nonce()+1 {
		t.Fatalf("second step sent %d (%v)", len(more), err)
	}
	sent = append(sent, more...)
	e.Sim.Commit()
	for i, h := range hashes {
		if filled, _ := e.RouterFilled(h); filled.Int64() != int64(i+1)*1_000_000 {
			t.Fatalf("order %d: router filled %s", i, filled)
		}
	}
	// Once the block is mined the node's count has caught up: the next
	// step's nonce follows, no gap, no reuse.
	o, sig, h = e.LimitOrder(5_000_000, 41)
	items = []Item{{Listing: Listing{OrderHash: h.Hex()}, Tx: TxData{To: e.D.Router.Hex(), Data: hexutil.Encode(e.FillData(o, sig, 5_000_000))}}}
	next, err := r.Step(context.Background())
	if err != nil || len(next) != 1 || next[0].Nonce() != sent[3].Nonce()+1 {
		t.Fatalf("next step sent %d (%v)", len(next), err)
	}
}

// Drive gates the keeper: while it reports false Run takes no step (the
// list is not read), and a step stops sending once it turns false (in a
// cluster: the node lost the chain lifecycle's lease mid-step).
func TestRunnerSendsOnlyWhileDriving(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	var items []Item
	for i := range 3 {
		o, sig, h := e.LimitOrder(int64(i+1)*1_000_000, uint64(50+i))
		items = append(items, Item{Listing: Listing{OrderHash: h.Hex()}, Tx: TxData{To: e.D.Router.Hex(), Data: hexutil.Encode(e.FillData(o, sig, int64(i+1)*1_000_000))}})
	}
	var listed atomic.Int64
	src := func(context.Context, common.Address, string) ([]Item, string, error) {
		listed.Add(1)
		return items, "", nil
	}
	// gate is what Drive answers with: not driving, then driving for two
	// items.
	var gate atomic.Pointer[func() bool]
	r := NewRunner(e.Client.(Client), e.Keeper.Key, src, RunnerOptions{Drive: func() bool { return (*gate.Load())() }})
	var asked atomic.Int64
	notDriving := func() bool {
		asked.Add(1)
		return false
	}
	gate.Store(&notDriving)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx, 5*time.Millisecond); close(done) }()
	for deadline := time.Now().Add(15 * time.Second); asked.Load() < 5; {
		if time.Now().After(deadline) {
			t.Fatal("Run did not ask Drive")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if n := listed.Load(); n != 0 {
		t.Fatalf("the keeper read its list %d times while not driving", n)
	}
	// Driving for two of the three items: the step stops before the third.
	var left atomic.Int64
	left.Store(2) // the step asks once before each item
	twoItems := func() bool { return left.Add(-1) >= 0 }
	gate.Store(&twoItems)
	sent, err := r.Step(context.Background())
	if err != nil || len(sent) != 2 {
		t.Fatalf("sent %d while driving for two items (%v)", len(sent), err)
	}
}
