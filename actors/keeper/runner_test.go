package keeper

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/actors/indexer/indexertest"
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
