package clustertest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// StreamLeaders asks node via's embedded NATS server (its client
// listener, cluster.nats.clientListen) which node leads each replicated
// stream, and returns the leader's name by stream name. It waits up to
// 30 s until every stream has a leader (an election after a node's
// death), failing the test after that.
func (h *Harness) StreamLeaders(via int) map[string]string {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, 30*time.Second)
	defer cancel()
	var last error
	for ctx.Err() == nil {
		leaders, err := h.streamLeaders(ctx, via)
		if err == nil {
			return leaders
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	h.t.Fatalf("clustertest: the streams' leaders through %s: %v", h.Nodes[via].Name, last)
	return nil
}

func (h *Harness) streamLeaders(ctx context.Context, via int) (map[string]string, error) {
	nc, err := nats.Connect("nats://"+h.Layout.Nodes[via].NATSClient, nats.Timeout(2*time.Second))
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	leaders := map[string]string{}
	streams := js.ListStreams(ctx)
	for info := range streams.Info() {
		if info.Cluster == nil || info.Cluster.Leader == "" {
			return nil, fmt.Errorf("stream %s has no leader yet", info.Config.Name)
		}
		leaders[info.Config.Name] = info.Cluster.Leader
	}
	if err := streams.Err(); err != nil {
		return nil, err
	}
	if len(leaders) == 0 {
		return nil, fmt.Errorf("no stream yet")
	}
	return leaders, nil
}

// OrderStreamsLed counts, by node index, the order streams (ORDERS_<p>)
// each node leads, as node via sees it.
func (h *Harness) OrderStreamsLed(via int) []int {
	h.t.Helper()
	led := make([]int, len(h.Nodes))
	for stream, leader := range h.StreamLeaders(via) {
		if !strings.HasPrefix(stream, "ORDERS_") {
			continue
		}
		for i, n := range h.Layout.Nodes {
			if n.Name == leader {
				led[i]++
			}
		}
	}
	return led
}

// StreamPeers asks node via which nodes hold each stream's replicas (the
// leader and the others, current or not), by stream name.
func (h *Harness) StreamPeers(via int) map[string][]string {
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
	peers := map[string][]string{}
	streams := js.ListStreams(ctx)
	for info := range streams.Info() {
		if info.Cluster == nil {
			continue
		}
		names := []string{info.Cluster.Leader}
		for _, r := range info.Cluster.Replicas {
			names = append(names, r.Name)
		}
		peers[info.Config.Name] = names
	}
	if err := streams.Err(); err != nil {
		h.t.Fatalf("clustertest: streams of %s: %v", h.Nodes[via].Name, err)
	}
	return peers
}

// WebhookOwner returns the index of the node that holds the shard of
// webhook endpoint id, the node that sends its deliveries, as node 0 sees
// it (GET /admin/v1/cluster?key=…), once the shard is held by the member
// it prefers (so it stays there while the members do); it waits up to
// 20 s for that.
func (h *Harness) WebhookOwner(id string) int {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var st struct {
			Key struct{ Holder, Preferred string } `json:"key"`
		}
		if err := h.AdminGet(0, "/admin/v1/cluster?key="+url.QueryEscape(id), &st); err != nil {
			h.t.Fatal(err)
		}
		for i, n := range h.Layout.Nodes {
			if n.Name == st.Key.Holder && st.Key.Holder == st.Key.Preferred {
				return i
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("clustertest: no node holds the shard of webhook %s (holder %q)", id, st.Key.Holder)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
