package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/cluster/natsjs"
	"github.com/orderengine/orderengine/config"
)

// runJetStreamMemory measures what JetStream itself costs per order with
// the engine's layout of the order streams: one embedded server as a node
// starts it (the order streams of cluster.orderPartitions, file storage),
// and n orders each published once on its own subject
// (orders.<partition>.<hash>, as the journal does, with a message id). It
// prints, every step, the process's RSS and Go heap after a collection and
// the store's size on disk, so the growth per order can be read off. The
// server runs as a one-node cluster (unclustered JetStream, one replica):
// per-subject state and block caches are a stream's, whatever its
// replicas; a replica's Raft log is not counted.
func runJetStreamMemory(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("jetstream-memory", flag.ContinueOnError)
	n := fs.Int("n", 1_000_000, "orders to publish")
	step := fs.Int("step", 100_000, "print a line every step orders")
	size := fs.Int("size", 600, "bytes of each message (an encoded create transition with its events is about this size)")
	window := fs.Int("window", 0, "keep only the last window orders' subjects: after every step, purge the subjects of the orders published before it, as the compaction does past the retention (0: keep all)")
	purgers := fs.Int("purgers", 64, "purge requests in flight")
	settle := fs.Duration("settle", 0, "wait this long before each sample, so that JetStream lets go of the blocks it cached for the writes and purges (it drops a block's cache after a few seconds unused)")
	memprofile := fs.String("memprofile", "", "write a heap profile to this file after the last sample")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "orderengine-jsmem")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	cfg := config.Default().Cluster
	cfg.Enabled, cfg.Node, cfg.Replicas = true, "bench", 1
	cfg.NATS.Listen, cfg.NATS.Routes = addr, []string{"nats://" + addr}
	node, err := natsjs.Start(natsjs.Options{Cluster: cfg, DataDir: dir, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	defer node.Close()
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := node.Setup(sctx); err != nil {
		return err
	}
	parts := node.OrderPartitions()
	js, err := jetstream.New(node.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "jetstream-memory: %d orders of %d B on their own subjects over %d order streams (fsync every write)\n",
		*n, *size, parts)
	fmt.Fprintf(out, "%10s %10s %10s %10s %10s %12s %12s\n", "orders", "RSS MiB", "heap MiB", "live MiB", "store MiB", "RSS B/order", "heap B/order")
	base := memNow(dir)
	fmt.Fprintf(out, "%10d %10.1f %10.1f %10.1f %10.1f %12s %12s\n", 0, mibOf(base.rss), mibOf(base.heap), mibOf(base.live), mibOf(base.store), "", "")
	payload := make([]byte, *size)
	_, _ = rand.Read(payload)
	began := time.Now()
	purged := 0           // orders [0, purged) are purged
	var atWindow memPoint // the first sample after a whole window was purged
	atWindowN := 0
	for i := 1; i <= *n; i++ {
		_, subject, h := memOrderSubject(i, parts)
		msg := &nats.Msg{Subject: subject, Data: payload, Header: nats.Header{}}
		msg.Header.Set(jetstream.MsgIDHeader, h+":1")
		for {
			_, err := js.PublishMsgAsync(msg)
			if err == nil {
				break
			}
			if !errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
				return fmt.Errorf("publish %d: %w", i, err)
			}
			select { // the window is full: let it drain
			case <-js.PublishAsyncComplete():
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if i%*step == 0 || i == *n {
			select {
			case <-js.PublishAsyncComplete():
			case <-ctx.Done():
				return ctx.Err()
			}
			if *window > 0 && i-*window > purged {
				if err := purgeOrders(ctx, node.Conn(), parts, purged+1, i-*window, *purgers); err != nil {
					return err
				}
				purged = i - *window
			}
			if err := sleepCtx(ctx, *settle); err != nil {
				return err
			}
			m := memNow(dir)
			fmt.Fprintf(out, "%10d %10.1f %10.1f %10.1f %10.1f %12.0f %12.0f\n", i, mibOf(m.rss), mibOf(m.heap), mibOf(m.live), mibOf(m.store),
				float64(m.rss-base.rss)/float64(i), float64(m.heap-base.heap)/float64(i))
			if *window > 0 && atWindow == (memPoint{}) && i >= 2**window {
				atWindow, atWindowN = m, i
			}
		}
	}
	fmt.Fprintf(out, "published in %v (%.0f orders/s)\n", time.Since(began).Round(time.Millisecond), float64(*n)/time.Since(began).Seconds())
	if atWindowN > 0 && *n > atWindowN {
		if err := sleepCtx(ctx, *settle); err != nil {
			return err
		}
		end := memNow(dir)
		closed := float64(*n - atWindowN)
		fmt.Fprintf(out, "from %d orders (a whole window purged) to %d (%d kept): RSS %+.0f B, heap %+.0f B, live heap %+.0f B, store %+.0f B per order purged since\n",
			atWindowN, *n, *window, float64(end.rss-atWindow.rss)/closed, float64(end.heap-atWindow.heap)/closed, float64(end.live-atWindow.live)/closed, float64(end.store-atWindow.store)/closed)
	}
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup("heap").WriteTo(f, 0)
	}
	return nil
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// memOrderSubject is the partition, subject and hash (hex) of the i-th
// order of jetstream-memory: its hash is sha256(i), so a purge finds it
// again without the bench holding every subject.
func memOrderSubject(i, partitions int) (int, string, string) {
	hash := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(i)))
	p := int(hash[0]) % partitions
	h := hex.EncodeToString(hash[:])
	return p, "orders." + strconv.Itoa(p) + "." + h, h
}

// purgeOrders purges the subjects of orders from to to (inclusive), as
// the compaction purges a closed order's subject, inFlight at once.
func purgeOrders(ctx context.Context, nc *nats.Conn, partitions, from, to, inFlight int) error {
	var wg sync.WaitGroup
	next := atomic.Int64{}
	next.Store(int64(from))
	errs := make(chan error, inFlight)
	for range inFlight {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i > to || ctx.Err() != nil {
					return
				}
				p, subject, _ := memOrderSubject(i, partitions)
				body := []byte(`{"filter":"` + subject + `"}`)
				resp, err := nc.RequestWithContext(ctx, "$JS.API.STREAM.PURGE.ORDERS_"+strconv.Itoa(p), body)
				if err == nil && !bytes.Contains(resp.Data, []byte(`"success":true`)) {
					err = fmt.Errorf("purge %s: %s", subject, resp.Data)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

type memPoint struct{ rss, heap, live, store int64 }

// memNow is the process's RSS, its Go heap in use (spans holding objects)
// and its live heap (the objects) after a collection, and the size of the
// JetStream store under dir.
func memNow(dir string) memPoint {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	store, _ := dirSize(filepath.Join(dir, "jetstream"))
	return memPoint{rss: int64(rssKiB(os.Getpid())) << 10, heap: int64(ms.HeapInuse), live: int64(ms.HeapAlloc), store: store}
}

func mibOf(b int64) float64 { return float64(b) / (1 << 20) }
