package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orderengine/orderengine/config"
)

// The streams mode's fanout part: n keeper streams open on one engine
// whose dev chain makes a block every interval, each an empty block event
// per block (the smallest event, what a keeper gets when nothing changed).
// It reports the memory per open stream (heap and RSS, server and harness
// together, and the harness's connections alone measured against a
// listener that only holds them) and the CPU per event: the process's CPU
// per block with the streams, minus without them, over the streams.

// rawStream is one stream read by a minimal client: a TCP connection, the
// request written by hand, a small buffer, the events counted.
type rawStream struct {
	conn   net.Conn
	events atomic.Int64
}

const rawBuf = 2048

func openRaw(addr, path, apiKey string) (*rawStream, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nX-API-Key: %s\r\nAccept: text/event-stream\r\n\r\n", path, addr, apiKey); err != nil {
		_ = c.Close()
		return nil, err
	}
	return &rawStream{conn: c}, nil
}

// read counts the stream's events ("id: " starts each) until it closes.
func (s *rawStream) read() {
	buf := make([]byte, rawBuf)
	for {
		n, err := s.conn.Read(buf)
		s.events.Add(int64(bytes.Count(buf[:n], []byte("\nid: "))))
		if err != nil {
			return
		}
	}
}

// heapRSS is the process's heap in use and RSS after a GC, in bytes.
func heapRSS() (heap, rss int64) {
	runtime.GC()
	m := memNow("")
	return m.heap, m.rss
}

func streamFanout(ctx context.Context, out io.Writer, n int, interval, window time.Duration, profile string) error {
	// The harness's side alone: n connections held by a listener that
	// never answers, each read like a stream.
	hold, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var held []net.Conn
	var heldMu sync.Mutex
	go func() {
		for {
			c, err := hold.Accept()
			if err != nil {
				return
			}
			heldMu.Lock()
			held = append(held, c)
			heldMu.Unlock()
		}
	}()
	h0, r0 := heapRSS()
	clients, err := openMany(n, hold.Addr().String(), "/", "")
	if err != nil {
		return err
	}
	h1, r1 := heapRSS()
	for _, c := range clients {
		_ = c.conn.Close()
	}
	_ = hold.Close()
	heldMu.Lock()
	for _, c := range held {
		_ = c.Close()
	}
	heldMu.Unlock()
	harnessHeap, harnessRSS := float64(h1-h0)/float64(n), float64(r1-r0)/float64(n)

	e, err := startChainEngine(ctx, interval, func(c *config.Config) { c.Streams.MaxPerKey = n + 1 })
	if err != nil {
		return err
	}
	defer e.close()
	fmt.Fprintf(out, "streams fanout: %d keeper streams, blocks every %v, CPU windows of %v\n", n, interval, window)
	time.Sleep(2 * interval)
	cpuBase, blocksBase := cpuPerBlock(e, window)
	h2, r2 := heapRSS()
	streams, err := openMany(n, e.sys.HTTP.Addr(), "/v1/keeper/stream", e.apiKey)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range streams {
			_ = s.conn.Close()
		}
	}()
	for deadline := time.Now().Add(time.Minute); e.sys.HTTP.OpenStreams() < n || !allGot(streams, 1); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d streams open", e.sys.HTTP.OpenStreams(), n)
		}
	}
	h3, r3 := heapRSS()
	var before int64
	for _, s := range streams {
		before += s.events.Load()
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	cpuStreams, blocks := cpuPerBlock(e, window)
	if profile != "" {
		pprof.StopCPUProfile()
	}
	var after int64
	for _, s := range streams {
		after += s.events.Load()
	}
	events := after - before
	extraPerBlock := cpuStreams - cpuBase
	fmt.Fprintf(out, "memory per open stream, server and harness: heap %.1f KiB, RSS %.1f KiB; the harness's connections alone: heap %.1f KiB, RSS %.1f KiB\n",
		float64(h3-h2)/float64(n)/1024, float64(r3-r2)/float64(n)/1024, harnessHeap/1024, harnessRSS/1024)
	fmt.Fprintf(out, "CPU per block: %v without streams (%d blocks), %v with them (%d blocks, %d events, %.1f per stream per block)\n",
		cpuBase, blocksBase, cpuStreams, blocks, events, float64(events)/float64(n)/float64(max(blocks, 1)))
	if events > 0 && blocks > 0 {
		fmt.Fprintf(out, "CPU per event, server and harness: %.1f µs\n", float64(extraPerBlock.Nanoseconds())*float64(blocks)/float64(events)/1000)
	}
	return nil
}

// openMany opens n raw streams to addr and reads each in the background.
func openMany(n int, addr, path, apiKey string) ([]*rawStream, error) {
	out := make([]*rawStream, 0, n)
	for range n {
		s, err := openRaw(addr, path, apiKey)
		if err != nil {
			for _, o := range out {
				_ = o.conn.Close()
			}
			return nil, err
		}
		go s.read()
		out = append(out, s)
	}
	return out, nil
}

func allGot(streams []*rawStream, k int64) bool {
	for _, s := range streams {
		if s.events.Load() < k {
			return false
		}
	}
	return true
}

// cpuPerBlock measures the process's CPU over window and the blocks the
// pairs evaluated meanwhile: CPU per block and the blocks. (The keeper
// stream's feed records blocks only while a stream is open.)
func cpuPerBlock(e *chainEngine, window time.Duration) (time.Duration, int64) {
	b0, c0 := e.sys.Pairs.LastTick().Block.Number, processCPU()
	time.Sleep(window)
	b1, c1 := e.sys.Pairs.LastTick().Block.Number, processCPU()
	blocks := int64(b1 - b0)
	if blocks <= 0 {
		return 0, 0
	}
	return (c1 - c0) / time.Duration(blocks), blocks
}
