// Package contracttest holds the HTTP contract tests that every way of
// running the engine must pass, as fstest.TestFS does for a file system:
// the operations of the served OpenAPI document need their keys, count in
// their buckets, carry the rate-limit headers, are the only ones served,
// and the error catalogue is the contract's. Run runs them against a
// Target: one node (Single, from package http's tests) or one node of an
// in-process cluster (Cluster, from cluster/clustertest, whose tests build
// without the race detector because several protoactor members in one
// process are not race-clean).
//
// A target's nodes start once per run and its tests share them: each test
// takes a fresh account and key (made on the first node, used on the
// last, so on a cluster the account has replicated before the test
// starts) and moves the targets' manual clock past every sliding window,
// so no test sees the rate-limit counts of another.
package contracttest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clock"
)

// Target is the engine the contract runs against.
type Target struct {
	nodes []*apptest.Server
	clk   *clock.Manual
}

// free is the free tier of every target: distinct limits per bucket, so an
// X-RateLimit-Limit names the bucket it counts in; builder is five times
// free.
var free = config.BucketLimits{Quote: 70, Read: 110, Order: 30}

func options(clk *clock.Manual) []apptest.Option {
	return append(orderOptions(), apptest.WithClock(clk), apptest.WithConfig(func(c *config.Config) {
		c.Limits.Free = free
		c.Limits.Builder = config.BucketLimits{Quote: 5 * free.Quote, Read: 5 * free.Read, Order: 5 * free.Order}
	}))
}

// Single starts one engine (the Pebble journal, no cluster) for the run.
func Single(t *testing.T) *Target {
	t.Helper()
	clk := clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return &Target{nodes: []*apptest.Server{apptest.NewTestServer(t, options(clk)...)}, clk: clk}
}

// Cluster starts n engines in this process as one cluster
// (apptest.NewTestCluster) for the run. The caller must build without the
// race detector.
func Cluster(t *testing.T, n int) *Target {
	t.Helper()
	clk := clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return &Target{nodes: apptest.NewTestCluster(t, n, options(clk)...), clk: clk}
}

// Run runs every contract test against tg, each as a subtest.
func Run(t *testing.T, tg *Target) {
	for _, c := range []struct {
		name string
		test func(*testing.T, *Target)
	}{
		{"EveryKeyedOperationNeedsAKey", everyKeyedOperationNeedsAKey},
		{"EveryOperationCountsInItsBucket", everyOperationCountsInItsBucket},
		{"ServesExactlyTheDescribedOperations", servesExactlyTheDescribedOperations},
		{"EveryResponseCarriesLimitHeaders", everyResponseCarriesLimitHeaders},
		{"ErrorCatalogServesTheContract", errorCatalogServesTheContract},
		{"WebhookOperationsDocumentWhatTheyAnswer", webhookOperationsDocumentWhatTheyAnswer},
		{"ConfigDeclaresEveryField", configDeclaresEveryField},
		{"AuthAndLimitMessagesSayWhatToFix", authAndLimitMessagesSayWhatToFix},
		{"OrderSubmitReadCancel", orderSubmitReadCancel},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, tg) })
	}
}

// server returns the last node, reporting to t, with a new account of tier
// (and enterprise limits) made on the first node and its key ready on
// every node. The clock moves two minutes first: every sliding window of
// the tests before has ended.
func (tg *Target) server(t *testing.T, tier config.Tier, limits config.BucketLimits) *apptest.Server {
	t.Helper()
	tg.nextWindow()
	first := tg.nodes[0]
	acct, err := first.System.Accounts.CreateAccount(t.Name(), tier, limits)
	if err != nil {
		t.Fatalf("contracttest: create account: %v", err)
	}
	key, rec, err := first.System.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatalf("contracttest: issue key: %v", err)
	}
	var s *apptest.Server
	for _, n := range tg.nodes {
		s = n.For(t)
		s.APIKey, s.AccountID, s.KeyID = key, acct.ID, rec.ID
		s.WaitFor("the test's key authenticating", func() bool {
			_, err := s.System.Accounts.Authenticate(key)
			return err == nil
		})
	}
	return s
}

// nextWindow moves the clock past every sliding rate-limit window.
func (tg *Target) nextWindow() { tg.clk.Advance(2 * time.Minute) }

func keyHeader(k string) map[string]string { return map[string]string{"X-API-Key": k} }

// CheckCode fails unless r has status and error code, the code is in the
// catalog with that status, and r carries an X-Request-ID.
func CheckCode(t testing.TB, r *apptest.Response, status int, code orderengine.Code) {
	t.Helper()
	if r.Status != status || r.Code() != string(code) {
		t.Fatalf("got %d %q, want %d %s; body %s", r.Status, r.Code(), status, code, r.Body)
	}
	info, ok := orderengine.LookupCode(code)
	if !ok || info.Status != status {
		t.Fatalf("code %s is not in the catalog with status %d", code, status)
	}
	if r.Header.Get("X-Request-ID") == "" {
		t.Fatalf("no X-Request-ID on error response")
	}
}

// LimitHeaders fails unless r carries the three X-RateLimit-* headers as
// non-negative integers, the limit being want when want > 0, and the same
// values in RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-
// headers-11), whose item names a bucket.
func LimitHeaders(t testing.TB, what string, r *apptest.Response, want int) {
	t.Helper()
	var n [3]int
	for i, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		var err error
		if n[i], err = strconv.Atoi(r.Header.Get(h)); err != nil || n[i] < 0 {
			t.Errorf("%s: %d answer has %s = %q", what, r.Status, h, r.Header.Get(h))
		}
	}
	if got := r.Header.Get("X-RateLimit-Limit"); want > 0 && got != strconv.Itoa(want) {
		t.Errorf("%s: X-RateLimit-Limit %s, want %d", what, got, want)
	}
	bucket := RateLimitBucket(r)
	if !validBucket[bucket] {
		t.Errorf("%s: RateLimit-Policy %q names no bucket", what, r.Header.Get("RateLimit-Policy"))
		return
	}
	if got, want := r.Header.Get("RateLimit-Policy"), `"`+bucket+`";q=`+strconv.Itoa(n[0])+";w=60"; got != want {
		t.Errorf("%s: RateLimit-Policy %q, want %q", what, got, want)
	}
	if got, want := r.Header.Get("RateLimit"), `"`+bucket+`";r=`+strconv.Itoa(n[1])+";t="+strconv.Itoa(n[2]); got != want {
		t.Errorf("%s: RateLimit %q, want %q", what, got, want)
	}
}

var validBucket = map[string]bool{"quote": true, "read": true, "order": true, "address": true}

// RateLimitBucket is the bucket RateLimit-Policy names ("" without one).
func RateLimitBucket(r *apptest.Response) string {
	name, _, _ := strings.Cut(r.Header.Get("RateLimit-Policy"), ";")
	if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
		return ""
	}
	return name[1 : len(name)-1]
}

// NoLimitHeaders fails if r carries any rate-limit header (the probes).
func NoLimitHeaders(t testing.TB, what string, r *apptest.Response) {
	t.Helper()
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit", "RateLimit-Policy", "Retry-After"} {
		if v := r.Header.Get(h); v != "" {
			t.Errorf("%s: %d answer carries %s: %s", what, r.Status, h, v)
		}
	}
}
