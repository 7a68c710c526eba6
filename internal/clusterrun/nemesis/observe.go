package nemesis

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/webhook"
)

// Receipt is one webhook request the receiver got.
type Receipt struct {
	// Delivery is the delivery id; Trigger the event; Order the order's
	// hash.
	Delivery, Trigger string
	Order             common.Hash
	// From is the sending node's address (every node has its own in its
	// namespace).
	From string
	// Valid reports a valid v1 signature over the body, whose id is the
	// delivery id.
	Valid bool
	At    time.Time
}

// Receiver is a webhook receiver in the test's namespace: it verifies
// each request's signature with Secret, records it and answers 204.
type Receiver struct {
	srv *http.Server
	ln  net.Listener
	// URL is the endpoint's URL as the nodes reach it.
	URL string

	mu     sync.Mutex
	secret string
	got    []Receipt
}

// NewReceiver serves on addr (host:0 for a free port).
func NewReceiver(addr string) (*Receiver, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	rv := &Receiver{ln: ln, URL: "http://" + ln.Addr().String() + "/hook"}
	rv.srv = &http.Server{Handler: http.HandlerFunc(rv.serve), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = rv.srv.Serve(ln) }()
	return rv, nil
}

// SetSecret sets the endpoint's signing secret.
func (rv *Receiver) SetSecret(s string) {
	rv.mu.Lock()
	rv.secret = s
	rv.mu.Unlock()
}

// Close stops the receiver.
func (rv *Receiver) Close() error { return rv.srv.Close() }

func (rv *Receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	from, _, _ := net.SplitHostPort(r.RemoteAddr)
	rv.mu.Lock()
	defer rv.mu.Unlock()
	d := webhook.Receive(r.Header, body, rv.secret, time.Now(), webhook.DefaultTolerance)
	rv.got = append(rv.got, Receipt{Delivery: d.ID, Trigger: d.Trigger, Order: d.OrderHash,
		From: from, Valid: d.Err == nil, At: time.Now()})
	w.WriteHeader(http.StatusNoContent)
}

// Receipts returns every request received so far, test pings left out.
func (rv *Receiver) Receipts() []Receipt {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	out := make([]Receipt, 0, len(rv.got))
	for _, r := range rv.got {
		if r.Trigger != "test.ping" {
			out = append(out, r)
		}
	}
	return out
}

// Sample is one reading of a node's view of the cluster: how many members
// it counts (-1: it did not answer).
type Sample struct {
	Node    int
	At      time.Time
	Members int
}

// Members samples every node's orderengine_cluster_members gauge every
// interval until ctx ends; metrics(i) GETs node i's /metrics.
func Members(ctx context.Context, nodes int, interval time.Duration, metrics func(ctx context.Context, i int) (io.ReadCloser, error)) <-chan []Sample {
	out := make(chan []Sample, 1)
	go func() {
		var samples []Sample
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t := time.NewTicker(interval)
				defer t.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-t.C:
					}
					s := Sample{Node: i, At: time.Now(), Members: readGauge(ctx, i, metrics, "orderengine_cluster_members")}
					mu.Lock()
					samples = append(samples, s)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		out <- samples
	}()
	return out
}

// readGauge reads one gauge of node i's metrics, -1 when it cannot.
func readGauge(ctx context.Context, i int, metrics func(ctx context.Context, i int) (io.ReadCloser, error), name string) int {
	ctx, cancel := context.WithTimeout(ctx, 400*time.Millisecond)
	defer cancel()
	body, err := metrics(ctx, i)
	if err != nil {
		return -1
	}
	defer func() { _ = body.Close() }()
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return -1
			}
			return int(f)
		}
	}
	return -1
}
