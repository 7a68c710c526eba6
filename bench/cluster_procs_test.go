package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

// TestDriveSpreadsOverServers: driveSpread sends every request once,
// spread over the servers by connection, and each server gets its share.
func TestDriveSpreadsOverServers(t *testing.T) {
	const servers, n = 3, 300
	var got [servers]atomic.Int64
	addrs := make([]string, servers)
	for i := range addrs {
		app := fiber.New(fiber.Config{DisableStartupMessage: true})
		app.Post("/v1/orders", func(c *fiber.Ctx) error {
			got[i].Add(1)
			return c.Status(201).SendString(`{}`)
		})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = app.Listener(ln) }()
		t.Cleanup(func() { _ = app.Shutdown() })
		addrs[i] = ln.Addr().String()
	}
	_, codes, _ := driveSpread(context.Background(), addrs, n, 6, 0, postOrder(addrs[0], "k", func(int) []byte { return []byte(`{}`) }))
	if codes["201"] != n {
		t.Fatalf("answers %v, want %d × 201", codes, n)
	}
	var sum int64
	for i := range got {
		if got[i].Load() == 0 {
			t.Errorf("server %d got no request", i)
		}
		sum += got[i].Load()
	}
	if sum != n {
		t.Fatalf("the servers got %d requests, want %d", sum, n)
	}
}

// TestProcCPUReadsThisProcess: procCPU reads a running process's CPU
// from /proc, and 0 for a process that does not exist.
func TestProcCPUReadsThisProcess(t *testing.T) {
	before := procCPU(os.Getpid())
	x := 0
	for procCPU(os.Getpid()) == before {
		for i := range 1 << 20 {
			x ^= i
		}
	}
	if procCPU(-1) != 0 {
		t.Fatal("CPU of pid -1")
	}
	_ = x
}

// -nodes takes one count or a list; every count holds the streams' three
// replicas; a list names its sets by size, repeats counted.
func TestClusterSetsFromNodes(t *testing.T) {
	for _, bad := range []string{"", "2", "3,x", "10", "3,,5"} {
		if _, err := parseNodeCounts(bad); err == nil {
			t.Errorf("-nodes %q accepted", bad)
		}
	}
	one, err := parseNodeCounts("3")
	if err != nil {
		t.Fatal(err)
	}
	if got := procSets(one); len(got) != 2 || got[0] != (procSet{"single", "single", 1}) || got[1] != (procSet{"cluster", "cluster", 3}) {
		t.Fatalf("sets of -nodes 3: %v", got)
	}
	list, err := parseNodeCounts("3, 5,5,3")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range procSets(list)[1:] {
		names = append(names, fmt.Sprintf("%s/%d", s.name, s.nodes))
	}
	if want := "cluster-3/3 cluster-5/5 cluster-5-2/5 cluster-3-2/3"; strings.Join(names, " ") != want {
		t.Fatalf("sets of -nodes 3,5,5,3: %v, want %s", names, want)
	}
}

// streamsHeld lists the stream folders of a node's JetStream store, the
// replicas it holds.
func TestStreamsHeld(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []string{"ORDERS_1", "SHARED", "ORDERS_0"} {
		if err := os.MkdirAll(filepath.Join(dir, "jetstream", "jetstream", "$G", "streams", s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(streamsHeld(dir), " "); got != "ORDERS_0 ORDERS_1 SHARED" {
		t.Fatalf("streamsHeld: %s", got)
	}
	if got := streamsHeld(t.TempDir()); len(got) != 0 {
		t.Fatalf("an empty folder holds %v", got)
	}
}

// sortedPercentile picks the p-quantile of sorted latencies.
func TestSortedPercentile(t *testing.T) {
	lat := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if sortedPercentile(lat, 0.5) != 5 || sortedPercentile(lat, 0.99) != 10 || sortedPercentile(nil, 0.5) != 0 || sortedPercentile(lat, 0) != 1 {
		t.Fatal("percentiles")
	}
}
