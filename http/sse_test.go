package http_test

import (
	"bufio"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/http/contracttest"
)

// openRaw opens GET path with key and returns the answer (its body open).
func openRaw(t *testing.T, ts *apptest.Server, path string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", ts.APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// A key holds at most streams.maxPerKey streams at once; one more is 409
// LIMIT_REACHED, and a closed stream frees its place (the server notices
// at its next heartbeat). An idle stream carries heartbeat comments, with
// the stream headers, and ends when the server shuts down.
func TestStreamsPerKeyCapAndHeartbeats(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) {
		c.Streams.MaxPerKey, c.Streams.Heartbeat = 2, 50*time.Millisecond
	}))
	first := openRaw(t, ts, "/v1/orders/stream")
	second := openRaw(t, ts, "/v1/orders/stream")
	for _, r := range []*http.Response{first, second} {
		if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" ||
			r.Header.Get("Cache-Control") != "no-cache" || r.Header.Get("X-RateLimit-Limit") == "" {
			t.Fatalf("stream answer %d %v", r.StatusCode, r.Header)
		}
	}
	contracttest.CheckCode(t, ts.Get("/v1/orders/stream"), 409, orderengine.CodeLimitReached)

	lines := bufio.NewScanner(first.Body)
	var got []string
	for len(got) < 4 && lines.Scan() {
		if l := lines.Text(); l != "" {
			got = append(got, l)
		}
	}
	if len(got) < 4 || got[0] != "retry: 1000" || got[1] != ": heartbeat" || got[3] != ": heartbeat" {
		t.Fatalf("stream lines %q, want retry: then heartbeats", got)
	}

	second.Body.Close()
	ts.WaitFor("the closed stream's place freed", func() bool { return ts.System.HTTP.OpenStreams() == 1 })
	third := openRaw(t, ts, "/v1/orders/stream")
	if third.StatusCode != 200 {
		t.Fatalf("after a close: %d", third.StatusCode)
	}

	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for lines.Scan() {
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.System.HTTP.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with open streams: %v", err)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream outlived the shutdown")
	}
	if n := ts.System.HTTP.OpenStreams(); n != 0 {
		t.Fatalf("%d streams open after the shutdown", n)
	}
}
