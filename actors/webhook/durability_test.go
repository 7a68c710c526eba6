package webhook_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/testport"
)

// TestKill9DuringBurstLosesNoDelivery is the durability proof with the real
// binary: it builds cmd/orderengine and the receiver example, registers an
// endpoint whose receiver is not listening yet, fires a burst of test.ping
// calls, kills the server with SIGKILL in the middle of the burst, starts
// the receiver, restarts the server on the same data directory, and checks
// that every delivery the API acknowledged (200 with a delivery id) reaches
// the receiver, verified and deduplicated by id.
func TestKill9DuringBurstLosesNoDelivery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the real binary")
	}
	began := time.Now()
	dir := t.TempDir()
	bin := filepath.Join(dir, "orderengine")
	recvBin := filepath.Join(dir, "webhook-receiver")
	for _, b := range [][2]string{{bin, "github.com/orderengine/orderengine/cmd/orderengine"}, {recvBin, "github.com/orderengine/orderengine/docs/examples/webhook-receiver"}} {
		out, err := exec.CommandContext(t.Context(), "go", "build", "-o", b[0], b[1]).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	t.Logf("built in %v", time.Since(began).Round(time.Millisecond))
	data := filepath.Join(dir, "data")
	recvPort := strconv.Itoa(testport.Port(t))

	srv := startServer(t, bin, data)
	key := srv.waitKey(t)
	secretFile := filepath.Join(dir, "secret")
	var created struct{ ID, Secret string }
	srv.call(t, key, "POST", "/v1/webhooks", `{"url":"http://127.0.0.1:`+recvPort+`/hook"}`, 201, &created)
	if err := os.WriteFile(secretFile, []byte(created.Secret), 0o600); err != nil {
		t.Fatal(err)
	}

	// The burst: acknowledged ids must all arrive; the kill comes once half
	// of them are acknowledged.
	const total, killAt = 400, 150
	var mu sync.Mutex
	acked := map[string]bool{}
	var done atomic.Int32
	killed := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 5 * time.Second}
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < total; i += 8 {
				var res struct{ DeliveryID string }
				if srv.try(client, key, "POST", "/v1/webhooks/"+created.ID+"/test", "", 200, &res) != nil {
					return // the server is gone
				}
				mu.Lock()
				acked[res.DeliveryID] = true
				n := len(acked)
				mu.Unlock()
				if n == killAt && done.CompareAndSwap(0, 1) {
					srv.kill9(t)
					close(killed)
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-killed:
	default:
		t.Fatalf("the burst finished before the kill (%d acknowledged)", len(acked))
	}
	t.Logf("acknowledged before/around the kill: %d of %d (at %v)", len(acked), total, time.Since(began).Round(time.Millisecond))

	// Receiver up, server restarted on the same data directory.
	out := filepath.Join(dir, "received.jsonl")
	recv := exec.Command(recvBin, "-addr", "127.0.0.1:"+recvPort, "-secret-file", secretFile, "-out", out)
	recvOut, _ := recv.StdoutPipe()
	if err := recv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = recv.Process.Kill(); _ = recv.Wait() })
	if line, err := bufio.NewReader(recvOut).ReadString('\n'); err != nil || !strings.HasPrefix(line, "listening on") {
		t.Fatalf("receiver did not start: %q %v", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, recvOut) }()
	srv = startServer(t, bin, data)
	srv.waitHealthy(t)
	t.Logf("restarted at %v", time.Since(began).Round(time.Millisecond))

	deadline := time.Now().Add(120 * time.Second)
	for {
		got := readIDs(t, out)
		missing := 0
		for id := range acked {
			if !got[id] {
				missing++
			}
		}
		if missing == 0 {
			t.Logf("all %d acknowledged deliveries received after the restart (%d distinct ids received) at %v", len(acked), len(got), time.Since(began).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d acknowledged deliveries never arrived", missing, len(acked))
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The counters of this process life show the redeliveries, on
	// GET /v1/stats and on /metrics.
	var stats struct {
		Webhooks struct{ DeliveriesSucceeded, DeliveriesAttempted int }
	}
	srv.call(t, key, "GET", "/v1/stats", "", 200, &stats)
	if n := stats.Webhooks.DeliveriesSucceeded; n < len(acked) || stats.Webhooks.DeliveriesAttempted < n {
		t.Fatalf("stats after restart: %+v, want at least %d succeeded", stats.Webhooks, len(acked))
	}
	resp, err := http.Get(srv.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !regexp.MustCompile(`(?m)^orderengine_webhook_deliveries_succeeded_total [1-9]`).Match(metrics) {
		t.Fatal("/metrics lacks the succeeded deliveries")
	}
}

// server is a running orderengine process.
type server struct {
	cmd    *exec.Cmd
	base   string
	mu     sync.Mutex
	stdout bytes.Buffer
	exited chan struct{}
}

func startServer(t *testing.T, bin, data string) *server {
	t.Helper()
	port := strconv.Itoa(testport.Port(t))
	s := &server{base: "http://127.0.0.1:" + port, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, "serve", "--data-dir", data, "--http-listen", "127.0.0.1:"+port, "--http-admin-listen", "127.0.0.1:0",
		"--http-metrics-on-admin=false") // /metrics next to the API, on the known port
	// Short retries so the test does not wait the production schedule:
	// 300 retries one second apart, so no delivery exhausts its schedule
	// however slowly a loaded machine runs the burst.
	// The embedded dev chain serves JSON-RPC on a free port, not 8545.
	s.cmd.Env = append(os.Environ(), "ORDERENGINE_WEBHOOKS_RETRY=["+strings.TrimSuffix(strings.Repeat("1000000000,", 300), ",")+"]",
		"ORDERENGINE_CHAIN_DEV_RPC_LISTEN=127.0.0.1:0")
	pr, pw := io.Pipe()
	s.cmd.Stdout = pw
	s.cmd.Stderr = io.Discard
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			s.mu.Lock()
			s.stdout.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
		}
	}()
	go func() { _ = s.cmd.Wait(); _ = pw.Close(); close(s.exited) }()
	t.Cleanup(func() { _ = s.cmd.Process.Kill(); <-s.exited })
	return s
}

var devKeyRe = regexp.MustCompile(`export KEY=(svc_[0-9A-Za-z]+)`)

// waitKey waits for readiness and returns the printed development key.
func (s *server) waitKey(t *testing.T) string {
	t.Helper()
	s.waitHealthy(t)
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		m := devKeyRe.FindStringSubmatch(s.stdout.String())
		s.mu.Unlock()
		if m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatal("no development key printed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *server) waitHealthy(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		select {
		case <-s.exited:
			t.Fatal("server exited before it was ready")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not ready: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *server) kill9(t *testing.T) {
	if err := s.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Error(err)
	}
	<-s.exited
}

func (s *server) try(c *http.Client, key, method, path, body string, want int, out any) error {
	req, err := http.NewRequestWithContext(context.Background(), method, s.base+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return json.Unmarshal(b, out)
}

func (s *server) call(t *testing.T, key, method, path, body string, want int, out any) {
	t.Helper()
	if err := s.try(http.DefaultClient, key, method, path, body, want, out); err != nil {
		t.Fatal(err)
	}
}

// readIDs returns the delivery ids the receiver example recorded.
func readIDs(t *testing.T, path string) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	data, err := os.ReadFile(path)
	if err != nil {
		return got
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		var ev struct{ ID string }
		if json.Unmarshal([]byte(line), &ev) == nil {
			got[ev.ID] = true
		}
	}
	return got
}
