package members_test

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/cluster/members"
)

// counterHandler serves the counter kind's messages for the one-member
// test: a registry of per-identity totals behind a kind.Registry-like
// Serve, counting tells apart.
type counterHandler struct {
	mu     sync.Mutex
	totals map[string]int
}

func (h *counterHandler) Serve(_ context.Context, key string, req kind.Message, oneWay bool) (kind.Message, error) {
	n, err := strconv.Atoi(string(req.Data))
	if err != nil {
		return kind.Message{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.totals[key] += n
	if oneWay {
		return kind.Message{}, nil
	}
	return kind.Message{Type: "ans", Data: strconv.AppendInt(nil, int64(h.totals[key]), 10)}, nil
}

// One member calls its own grains from many goroutines at once: the path
// every remote request takes (owner, activation by disthash's placement
// actor, the grain, the handler), under the race detector. Several members
// in one process cannot run under it (see the package's tests), one can.
func TestCallPathConcurrently(t *testing.T) {
	h := &counterHandler{totals: map[string]int{}}
	m := members.New(members.Config{Name: "one", Listen: "127.0.0.1:0", Provider: members.InMemory(members.NewAgent()),
		Log: slog.New(slog.DiscardHandler)})
	m.Host("counter", h, time.Minute)
	changes := make(chan members.Change, 4)
	m.OnChange(func(c members.Change) { changes <- c })
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Kill()
	select {
	case c := <-changes:
		if len(c.Members) != 1 || c.Members[0] != m.Address() || len(c.Joined) != 1 {
			t.Fatalf("the first change: %+v", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no membership change was told")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const ids, per = 20, 25
	var wg sync.WaitGroup
	errs := make(chan error, ids*4)
	for i := range ids {
		for range 4 {
			wg.Go(func() {
				key := fmt.Sprintf("c-%d", i)
				for j := range per {
					if !m.Owns("counter", key) {
						errs <- fmt.Errorf("%s: the only member does not own it", key)
						return
					}
					var err error
					if j%5 == 0 {
						err = m.Tell(ctx, "counter", key, kind.Message{Type: "add", Data: []byte("1")})
					} else {
						_, err = m.Call(ctx, "counter", key, kind.Message{Type: "add", Data: []byte("1")})
					}
					if err != nil {
						errs <- err
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := range ids {
		ans, err := m.Call(ctx, "counter", fmt.Sprintf("c-%d", i), kind.Message{Type: "add", Data: []byte("0")})
		if err != nil || string(ans.Data) != strconv.Itoa(4*per) {
			t.Fatalf("c-%d: %s %v, want %d", i, ans.Data, err, 4*per)
		}
	}
	if _, err := m.Call(ctx, "nokind", "x", kind.Message{}); err == nil {
		t.Fatal("a call to a kind nobody hosts succeeded")
	}
}
