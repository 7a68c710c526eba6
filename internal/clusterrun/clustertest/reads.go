package clustertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/cluster/natsjs"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// ListAll walks a paged list endpoint of node i (GET path, with its own
// query, e.g. "/v1/orders?wallet=0x…" or "/v1/orderbook/WETH-USDC") with
// key, 500 rows a page, following nextCursor, and returns every row of its
// "orders" as the node rendered it. A page that is not 200 is an error.
func (h *Harness) ListAll(i int, key, path string) ([]json.RawMessage, error) {
	var rows []json.RawMessage
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	cursor := ""
	for {
		p := path + sep + "limit=500"
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		code, body := h.Do(i, http.MethodGet, p, key, nil)
		if code != http.StatusOK {
			return nil, fmt.Errorf("GET %s on %s: %d %s", p, h.Nodes[i].Name, code, body)
		}
		var page struct {
			Orders     []json.RawMessage `json:"orders"`
			NextCursor *string           `json:"nextCursor"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, fmt.Errorf("GET %s on %s: %v", p, h.Nodes[i].Name, err)
		}
		rows = append(rows, page.Orders...)
		if page.NextCursor == nil || *page.NextCursor == "" {
			return rows, nil
		}
		cursor = *page.NextCursor
	}
}

// Journal reads, through node via's embedded NATS server, every
// transition of order hash in its order stream (the replicated journal),
// in order. An order that was never stored has none.
func (h *Harness) Journal(via int, hash common.Hash) []*orderstore.Transition {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, 30*time.Second)
	defer cancel()
	nc, err := nats.Connect("nats://"+h.Layout.Nodes[via].NATSClient, nats.Timeout(2*time.Second))
	if err != nil {
		h.t.Fatalf("clustertest: NATS of %s: %v", h.Nodes[via].Name, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		h.t.Fatal(err)
	}
	partitions := 0
	for name := range js.StreamNames(ctx).Name() {
		if strings.HasPrefix(name, "ORDERS_") {
			partitions++
		}
	}
	if partitions == 0 {
		h.t.Fatalf("clustertest: %s lists no order stream", h.Nodes[via].Name)
	}
	p := natsjs.Partition(hash, partitions)
	s, err := js.Stream(ctx, fmt.Sprintf("ORDERS_%d", p))
	if err != nil {
		h.t.Fatal(err)
	}
	subj := fmt.Sprintf("orders.%d.%x", p, hash[:])
	var out []*orderstore.Transition
	for seq := uint64(1); ; {
		m, err := s.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subj))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return out
		}
		if err != nil {
			h.t.Fatalf("clustertest: journal of %s: %v", hash.Hex(), err)
		}
		t, err := orderstore.DecodeTransition(m.Data)
		if err != nil {
			h.t.Fatalf("clustertest: journal of %s at %d: %v", hash.Hex(), m.Sequence, err)
		}
		out = append(out, t)
		seq = m.Sequence + 1
	}
}
