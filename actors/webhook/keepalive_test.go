package webhook_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/webhook"
)

// TestFirstAttemptsSucceedOnIdleConnections delivers events one at a time,
// pausing between them so that the connection goes idle, to two real
// receivers with their usual settings: Node's http server with its
// defaults (it closes a connection idle for 5 s) and Go's net/http with a
// 1 s IdleTimeout (it closes connections the sender still holds). Every
// delivery succeeds at its first attempt, arrives once, and is signed; the
// Go receiver shows that requests met connections it had closed and were
// sent again on new ones within their attempt.
func TestFirstAttemptsSucceedOnIdleConnections(t *testing.T) {
	t.Run("node:http defaults", func(t *testing.T) {
		t.Parallel()
		url, got := startNodeReceiver(t)
		// Pauses on both sides of the sender's idle timeout (3 s) and of
		// Node's (it closes an idle connection 5 to 6 s after its last
		// answer).
		deliverPaced(t, url, got, []time.Duration{time.Second, 2900 * time.Millisecond, 4900 * time.Millisecond, 6500 * time.Millisecond})
	})
	t.Run("net/http IdleTimeout 1s", func(t *testing.T) {
		t.Parallel()
		rc := &goReceiver{}
		srv := httptest.NewUnstartedServer(rc)
		srv.Config.IdleTimeout = time.Second
		srv.Start()
		t.Cleanup(srv.Close)
		gaps := []time.Duration{1300 * time.Millisecond, 1300 * time.Millisecond, 1500 * time.Millisecond, 2 * time.Second}
		if resent := deliverPaced(t, srv.URL+"/hook", rc.all, gaps); resent < 1 {
			t.Fatalf("no request met a connection the receiver had closed (%d resent): the test did not exercise the stale case", resent)
		}
	})
}

// gotRequest is a request a receiver got.
type gotRequest struct {
	Delivery, Event, Signature, Body string
}

// deliverPaced emits len(gaps)+1 events to an endpoint at url, waiting
// until the receiver (got) has each one and then for its gap before the
// next, checks that each was delivered once, signed, at its first attempt,
// and returns how many requests were sent again after a stale connection.
func deliverPaced(t *testing.T, url string, got func() []gotRequest, gaps []time.Duration) uint64 {
	h := newHarness(t, nil)
	ep := h.create("acc_1", url)
	for i := range len(gaps) + 1 {
		h.emit("acc_1", "order.filled")
		eventually(t, "delivery "+strconv.Itoa(i+1), func() bool { return len(got()) > i })
		if i < len(gaps) {
			// The pause is what the test is about: the connection the last
			// delivery used goes idle for this long.
			time.Sleep(gaps[i])
		}
	}
	n := len(gaps) + 1
	eventually(t, "every outcome written", func() bool {
		log, err := h.m.Deliveries("acc_1", ep.ID)
		if err != nil || len(log.Deliveries) != n {
			return false
		}
		for _, d := range log.Deliveries {
			if d.Status == "pending" && d.Attempts == 0 {
				return false
			}
		}
		return true
	})
	seen := map[string]bool{}
	for _, d := range got() {
		if seen[d.Delivery] {
			t.Errorf("delivery %s arrived twice", d.Delivery)
		}
		seen[d.Delivery] = true
		if err := webhook.Verify(d.Signature, []byte(d.Body), ep.Secret, h.clock.Now(), webhook.DefaultTolerance); err != nil {
			t.Errorf("delivery %s: signature: %v", d.Delivery, err)
		}
	}
	if len(seen) != n {
		t.Errorf("the receiver got %d deliveries, want %d", len(seen), n)
	}
	log, err := h.m.Deliveries("acc_1", ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Deliveries) != n {
		t.Fatalf("%d deliveries in the log, want %d", len(log.Deliveries), n)
	}
	for _, d := range log.Deliveries {
		if d.Status != "delivered" || d.Attempts != 1 || d.AttemptLog[0].ResponseCode == nil || *d.AttemptLog[0].ResponseCode/100 != 2 {
			t.Errorf("delivery %s: %s after %d attempts, log %+v: want delivered at the first attempt", d.ID, d.Status, d.Attempts, d.AttemptLog)
		}
	}
	s := h.m.Stats()
	if s.Failed != 0 || s.Attempted != uint64(n) {
		t.Errorf("stats %+v: want %d attempts, none failed", s, n)
	}
	t.Logf("%d requests sent again after a stale connection", s.Resent)
	return s.Resent
}

// goReceiver is a net/http handler that records every request and answers
// 204.
type goReceiver struct {
	mu  sync.Mutex
	got []gotRequest
}

func (rc *goReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.got = append(rc.got, gotRequest{r.Header.Get(webhook.HeaderDelivery), r.Header.Get(webhook.HeaderEvent), r.Header.Get(webhook.HeaderSignature), string(body)})
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (rc *goReceiver) all() []gotRequest {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]gotRequest(nil), rc.got...)
}

// startNodeReceiver runs testdata/receiver/server.js (node:http with its
// defaults) and returns its URL and the requests it got so far.
func startNodeReceiver(t *testing.T) (string, func() []gotRequest) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), requireNode(t), filepath.Join("testdata", "receiver", "server.js"))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	var hello struct {
		Port             int `json:"port"`
		KeepAliveTimeout int `json:"keepAliveTimeout"`
	}
	if !lines.Scan() || json.Unmarshal(lines.Bytes(), &hello) != nil || hello.Port == 0 {
		t.Fatalf("node receiver did not start: %q %v", lines.Text(), lines.Err())
	}
	if hello.KeepAliveTimeout != 5000 {
		t.Fatalf("node's default keepAliveTimeout is %d ms here, not the 5000 this test is about", hello.KeepAliveTimeout)
	}
	var mu sync.Mutex
	var got []gotRequest
	go func() {
		for lines.Scan() {
			var d gotRequest
			if err := json.Unmarshal(lines.Bytes(), &d); err != nil {
				t.Errorf("node receiver printed %q: %v", lines.Text(), err)
				continue
			}
			mu.Lock()
			got = append(got, d)
			mu.Unlock()
		}
	}()
	return "http://127.0.0.1:" + strconv.Itoa(hello.Port) + "/hook", func() []gotRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]gotRequest(nil), got...)
	}
}

// requireNode returns the path of node; without it the test is skipped,
// or fails under CI=true.
func requireNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	return node
}
