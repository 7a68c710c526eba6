package clustertest_test

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
)

// The checks of issue's promises shared by the kill, pause and rejoin
// tests: what a failed submit may answer, settling the orders whose fate a
// client does not know, and the cluster-wide reads and refusals of every
// stored order.

// loadEnv lifts the per-maker limits (10 submits per 10 s, 1,000 open
// orders) above what a load of two makers reaches; the key's limits are
// the enterprise key's of Harness.Key.
var loadEnv = map[string]string{
	"ORDERENGINE_LIMITS_MAKER_SUBMITS":     "1000000",
	"ORDERENGINE_LIMITS_MAKER_OPEN_ORDERS": "1000000",
}

// allowedFailure reports whether a submit's non-201 answer is one the API
// documents for a node that cannot make the order durable now: 503
// NO_QUORUM with Retry-After (nothing stored, or may have been stored), or
// 500 INTERNAL saying the order may or may not have been stored.
func allowedFailure(a clustertest.Answer) bool {
	switch {
	case a.Code == http.StatusServiceUnavailable:
		return a.ErrCode == "NO_QUORUM" && a.RetryAfter != ""
	case a.Code == http.StatusInternalServerError:
		return a.ErrCode == "INTERNAL" && a.MayBeStored()
	}
	return false
}

// describe is a short text of an answer for a log or a failure.
func describe(h *clustertest.Harness, a clustertest.Answer) string {
	return fmt.Sprintf("%s %d %s %q (order %s, sent %s, took %v)", h.Nodes[a.Node].Name, a.Code, a.ErrCode, a.Message,
		a.Hash.Hex()[:10], a.Sent.Format("15:04:05.000"), a.At.Sub(a.Sent).Round(time.Millisecond))
}

// tally counts answers by status and error code ("201", "503 NO_QUORUM").
func tally(as []clustertest.Answer) string {
	n := map[string]int{}
	for _, a := range as {
		n[strings.TrimSpace(fmt.Sprintf("%d %s", a.Code, a.ErrCode))]++
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %d; ", k, n[k])
	}
	return strings.TrimSuffix(b.String(), "; ")
}

// settle resubmits, on node via, every order whose submit was not
// answered 201, as a client following the API does (after Retry-After),
// until it is answered 201 or 409 ALREADY_EXISTS, and returns the orders
// stored. An order whose answer said nothing was stored must be answered
// 201: a 409 would mean that answer was wrong. An order whose answer left
// its fate unknown may be answered either.
func settle(t *testing.T, h *clustertest.Harness, key string, via int, failed []clustertest.Answer) []common.Hash {
	t.Helper()
	var stored []common.Hash
	for _, a := range failed {
		for attempt := 1; ; attempt++ {
			r := h.Post(via, "/v1/orders", key, a.Body, 15*time.Second)
			if r.Code == http.StatusCreated || r.Code == http.StatusConflict && r.ErrCode == "ALREADY_EXISTS" {
				if r.Code == http.StatusConflict && !a.MayBeStored() {
					t.Errorf("order %s: its submit answered that nothing was stored (%s), its resubmit on %s: 409 %s",
						a.Hash.Hex(), describe(h, a), h.Nodes[via].Name, r.Message)
				}
				stored = append(stored, a.Hash)
				break
			}
			if attempt == 20 || !allowedFailure(r) && r.Code != 0 {
				t.Fatalf("resubmit of %s on %s (attempt %d): %s", a.Hash.Hex(), h.Nodes[via].Name, attempt, describe(h, r))
			}
			time.Sleep(time.Second)
		}
	}
	return stored
}

// verifyStored checks every order of hashes on every node: node ref reads
// it (200), every other node reads it with the same status (within 30 s:
// the replication delay), and a resubmit of its signed body on any node
// is refused 409 ALREADY_EXISTS (no order accepted twice).
func verifyStored(t *testing.T, h *clustertest.Harness, key string, ref int, orders map[common.Hash][]byte) {
	t.Helper()
	for hash := range orders {
		want, code := h.Status(ref, key, hash)
		if code != http.StatusOK {
			t.Fatalf("order %s, stored, on %s: HTTP %d", hash.Hex(), h.Nodes[ref].Name, code)
		}
		for i := range h.Nodes {
			h.WaitStatus(i, key, hash, want, 30*time.Second)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 3*len(orders))
	for i := range h.Nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for hash, body := range orders {
				r := h.Post(i, "/v1/orders", key, body, 15*time.Second)
				if r.Code != http.StatusConflict || r.ErrCode != "ALREADY_EXISTS" {
					errs <- fmt.Sprintf("resubmit of the stored order %s on %s: %s", hash.Hex(), h.Nodes[i].Name, describe(h, r))
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
