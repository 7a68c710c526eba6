package http_test

import (
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine/app/apptest"
)

// A client connection that never sends a request (a pooled spare) must be
// closed without a response: answering would put an unsolicited 4xx on a
// connection the client believes idle.
func TestReadTimeoutClosesSilently(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) {
		c.HTTP.ReadTimeout = 150 * time.Millisecond
	}))
	u, err := url.Parse(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The deadline only bounds the test; the server closes long before it.
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("read: %v (the server did not close the idle connection)", err)
	}
	if len(got) != 0 {
		t.Fatalf("server wrote on a connection that sent nothing: %q", got)
	}
	// A real request still works on a fresh connection.
	if r := ts.Do("GET", "/v1/config", nil, nil); r.Status != 200 {
		t.Fatalf("GET /v1/config: %d", r.Status)
	}
}
