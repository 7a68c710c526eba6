package http_test

import (
	"context"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
)

// TestShutdownDrainsInFlight checks that Shutdown waits for a request in
// progress and that the request completes normally.
func TestShutdownDrainsInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	route := apihttp.BlockingRouteForTest(apihttp.Route{Method: "GET", Path: "/v1/test-slow", Access: apihttp.Keyless, Status: 200,
		Doc: apihttp.OpDoc{ID: "testSlow", Tag: "meta", Summary: "slow", Response: "Health"}}, entered, release)
	ts := apptest.NewTestServer(t, apptest.WithRoutes(route))

	answered := make(chan *apptest.Response, 1)
	go func() { answered <- ts.Raw(ts.URL, "GET", "/v1/test-slow", nil, nil) }()
	<-entered

	shutdownDone := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		shutdownDone <- ts.HTTP.Shutdown(ctx)
	}()
	select {
	case err := <-shutdownDone:
		t.Fatalf("shutdown returned (%v) while a request was in flight", err)
	case r := <-answered:
		t.Fatalf("request answered %d before release", r.Status)
	default:
	}
	// Wait until shutdown has closed the listener (new connections are
	// refused) while the request is still held, then let it finish.
	addr := strings.TrimPrefix(ts.URL, "http://")
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		_ = conn.Close()
		if time.Now().After(deadline) {
			t.Fatal("listener still accepting after shutdown began")
		}
		runtime.Gosched()
	}
	select {
	case err := <-shutdownDone:
		t.Fatalf("shutdown returned (%v) before the in-flight request finished", err)
	default:
	}
	close(release)
	if r := <-answered; r.Status != 200 {
		t.Fatalf("in-flight request: %d %s", r.Status, r.Body)
	}
	if err := <-shutdownDone; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}
