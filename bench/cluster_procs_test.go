package main

import (
	"context"
	"net"
	"os"
	"sync/atomic"
	"testing"

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
