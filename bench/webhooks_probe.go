package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// The webhooks mode's probe (-timeline): it samples the garbage collector and
// Pebble's flushes and compactions every few milliseconds, and prints, for
// every cluster of slow deliveries, what happened around it, with the
// producer's commit share of the latency. It is how the tail is attributed.

// probeSample is one sample of the process state.
type probeSample struct {
	at                   time.Time
	gcs                  uint64
	flushes, compactions int64
	flushing, compacting int64
	memtables            int64
}

// probe samples in the background until stop.
type probe struct {
	db      *pebble.DB
	stop    chan struct{}
	done    chan struct{}
	samples []probeSample
}

func startProbe(db *pebble.DB) *probe {
	p := &probe{db: db, stop: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *probe) run() {
	defer close(p.done)
	ms := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			metrics.Read(ms)
			m := p.db.Metrics()
			p.samples = append(p.samples, probeSample{
				at: now, gcs: ms[0].Value.Uint64(),
				flushes: m.Flush.Count, compactions: m.Compact.Count,
				flushing: m.Flush.NumInProgress, compacting: m.Compact.NumInProgress,
				memtables: m.MemTable.Count,
			})
		}
	}
}

func (p *probe) finish() []probeSample {
	close(p.stop)
	<-p.done
	return p.samples
}

// printStorage prints what Pebble wrote in the background during the
// measurement and how long flushes and compactions were running (from the
// samples): the work that competes with deliveries for the two cores.
func printStorage(out io.Writer, db *pebble.DB, ps []probeSample) {
	m := db.Metrics()
	t := m.Total()
	var flushing, compacting time.Duration
	for i := 1; i < len(ps); i++ {
		dt := ps[i].at.Sub(ps[i-1].at)
		if ps[i].flushing > 0 {
			flushing += dt
		}
		if ps[i].compacting > 0 {
			compacting += dt
		}
	}
	fmt.Fprintf(out, "  pebble: WAL %.1f MiB in; ", float64(m.WAL.BytesIn)/(1<<20))
	fmt.Fprintf(out, "%d flushes (%.1f MiB written, running %v), %d compactions (%.1f MiB written, running %v)\n",
		m.Flush.Count, float64(t.TableBytesFlushed+t.BlobBytesFlushed)/(1<<20), flushing.Round(time.Millisecond),
		m.Compact.Count, float64(t.TableBytesCompacted+t.BlobBytesCompacted)/(1<<20), compacting.Round(time.Millisecond))
}

// deliverySample is one first delivery as the receiver saw it.
type deliverySample struct {
	enq    time.Time
	commit time.Duration // enqueue to the producer's commit returning
	total  time.Duration // enqueue to the receiver's handler
}

// printTimeline prints the clusters of deliveries slower than slow, with the
// collector and Pebble activity from 50 ms before each cluster to its end.
func printTimeline(out io.Writer, start time.Time, ds []deliverySample, ps []probeSample, slow time.Duration) {
	slices.SortFunc(ds, func(a, b deliverySample) int { return a.enq.Compare(b.enq) })
	rel := func(t time.Time) string { return fmt.Sprintf("%6.0fms", float64(t.Sub(start).Microseconds())/1000) }
	type cluster struct {
		from, to          time.Time
		n                 int
		maxTotal, maxComm time.Duration
	}
	var cs []cluster
	for _, d := range ds {
		if d.total < slow {
			continue
		}
		end := d.enq.Add(d.total)
		if len(cs) > 0 && d.enq.Before(cs[len(cs)-1].to.Add(20*time.Millisecond)) {
			c := &cs[len(cs)-1]
			c.n++
			c.to = later(c.to, end)
			c.maxTotal = max(c.maxTotal, d.total)
			c.maxComm = max(c.maxComm, d.commit)
			continue
		}
		cs = append(cs, cluster{from: d.enq, to: end, n: 1, maxTotal: d.total, maxComm: d.commit})
	}
	commit := make([]time.Duration, 0, len(ds))
	after := make([]time.Duration, 0, len(ds))
	for _, d := range ds {
		if d.commit > 0 {
			commit = append(commit, d.commit)
			after = append(after, d.total-d.commit)
		}
	}
	fmt.Fprintf(out, "  stages: producer commit %s; commit to delivery %s\n", quantiles(commit), quantiles(after))
	fmt.Fprintf(out, "  timeline: %d clusters of deliveries over %v\n", len(cs), slow)
	for _, c := range cs {
		fmt.Fprintf(out, "  %s..%s  %4d slow  max %v (commit share max %v):",
			rel(c.from), rel(c.to), c.n, c.maxTotal.Round(100*time.Microsecond), c.maxComm.Round(100*time.Microsecond))
		var prev *probeSample
		for i := range ps {
			s := &ps[i]
			if s.at.Before(c.from.Add(-50*time.Millisecond)) || s.at.After(c.to) {
				prev = s
				continue
			}
			if prev != nil {
				if s.gcs != prev.gcs {
					fmt.Fprintf(out, " gc@%s", rel(s.at))
				}
				if s.flushing != prev.flushing {
					fmt.Fprintf(out, " flush%+d@%s", s.flushing-prev.flushing, rel(s.at))
				}
				if s.compacting != prev.compacting {
					fmt.Fprintf(out, " compact%+d@%s", s.compacting-prev.compacting, rel(s.at))
				}
				if s.memtables != prev.memtables {
					fmt.Fprintf(out, " memtables=%d@%s", s.memtables, rel(s.at))
				}
			}
			prev = s
		}
		fmt.Fprintln(out)
	}
	printSchedLatency(out)
}

// quantiles formats p50, p99 and max of ds (sorted in place).
func quantiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	slices.Sort(ds)
	q := func(p float64) time.Duration {
		return ds[min(len(ds)-1, int(p*float64(len(ds))))].Round(10 * time.Microsecond)
	}
	return fmt.Sprintf("p50 %v p99 %v max %v", q(0.5), q(0.99), ds[len(ds)-1].Round(10*time.Microsecond))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// printSchedLatency prints quantiles of the time goroutines spent runnable
// before running (the runtime's own histogram, whole process life).
func printSchedLatency(out io.Writer) {
	ms := []metrics.Sample{{Name: "/sched/latencies:seconds"}, {Name: "/gc/pauses:seconds"}}
	metrics.Read(ms)
	for _, m := range ms {
		h := m.Value.Float64Histogram()
		var total uint64
		for _, c := range h.Counts {
			total += c
		}
		fmt.Fprintf(out, "  %s:", m.Name)
		for _, q := range []float64{0.5, 0.99, 0.999, 1} {
			fmt.Fprintf(out, " q%g≤%s", q, bucketUpper(h, total, q))
		}
		fmt.Fprintln(out)
	}
}

func bucketUpper(h *metrics.Float64Histogram, total uint64, q float64) string {
	want := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range h.Counts {
		seen += c
		if seen >= want && c > 0 {
			return time.Duration(h.Buckets[i+1] * 1e9).String()
		}
	}
	return "?"
}

// startProfiles starts a runtime/trace and a CPU profile when their files
// are named; the returned function stops them.
func startProfiles(traceFile, cpuFile string) (func(), error) {
	var stops []func()
	stop := func() {
		for _, f := range stops {
			f()
		}
	}
	if traceFile != "" {
		f, err := os.Create(traceFile)
		if err != nil {
			return nil, err
		}
		if err := trace.Start(f); err != nil {
			_ = f.Close()
			return nil, err
		}
		stops = append(stops, func() { trace.Stop(); _ = f.Close() })
	}
	if cpuFile != "" {
		f, err := os.Create(cpuFile)
		if err != nil {
			stop()
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
			stop()
			return nil, err
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); _ = f.Close() })
	}
	return stop, nil
}
