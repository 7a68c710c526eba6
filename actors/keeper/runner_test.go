package keeper

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/actors/indexer/indexertest"
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
	e := indexertest.NewEnv(t)
	url, requests := hungNode(t)
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	src := func(context.Context, common.Address, string) ([]Item, string, error) { return nil, "", nil }
	r := NewRunner(client, e.Keeper.Key, src, nil)
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
	e := indexertest.NewEnv(t)
	down, err := ethclient.Dial("http://127.0.0.1:" + strconv.Itoa(testport.Port(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer down.Close()
	var asked []string
	pages := map[string]string{"": "0xa", "0xa": "0xb", "0xb": ""}
	src := func(_ context.Context, _ common.Address, cursor string) ([]Item, string, error) {
		asked = append(asked, cursor)
		return nil, pages[cursor], nil
	}
	r := NewRunner(e.Client.(Client), e.Keeper.Key, src, nil)
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
