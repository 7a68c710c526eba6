package webhook

import (
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/persistence"
)

// outcomeWriter writes attempt outcomes in groups: an attempt hands its
// outcome over and returns, and one goroutine writes every outcome that
// arrived meanwhile in one batch (WebhookStore.SaveDeliveries), then reports
// each to its endpoint actor. At thousands of deliveries per second this
// replaces thousands of small commits, which competed with the producers'
// synced commits in Pebble's commit pipeline, with a few hundred.
type outcomeWriter struct {
	m    *Manager
	wake chan struct{}
	stop chan struct{}
	done chan struct{}

	mu    sync.Mutex
	queue []outcome
}

// outcome is one finished attempt waiting to be written.
type outcome struct {
	self  *actor.PID
	guard *endpoint
	msg   *attemptDone
}

func newOutcomeWriter(m *Manager) *outcomeWriter {
	w := &outcomeWriter{m: m, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

// add queues an outcome; the writer calls m.attempts.Done once it is
// written and reported.
func (w *outcomeWriter) add(o outcome) {
	w.mu.Lock()
	w.queue = append(w.queue, o)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// close stops the writer; callers have waited for every attempt first, so
// nothing is queued.
func (w *outcomeWriter) close() {
	close(w.stop)
	<-w.done
}

func (w *outcomeWriter) run() {
	defer close(w.done)
	var batch []outcome
	for {
		select {
		case <-w.stop:
			return
		case <-w.wake:
		}
		w.mu.Lock()
		batch, w.queue = w.queue, batch[:0]
		w.mu.Unlock()
		w.write(batch)
		clear(batch)
	}
}

// write persists a group of outcomes and reports them. An endpoint's
// outcomes are written under its saveMu read lock (taken once per endpoint:
// a second RLock could wait behind a deletion's Lock), so none lands after
// the endpoint's deletion.
func (w *outcomeWriter) write(batch []outcome) {
	m := w.m
	locked := make(map[*endpoint]bool, len(batch))
	ds := make([]*persistence.WebhookDelivery, 0, len(batch))
	for _, o := range batch {
		if _, seen := locked[o.guard]; !seen {
			o.guard.saveMu.RLock()
			locked[o.guard] = !o.guard.gone
		}
		if locked[o.guard] {
			ds = append(ds, o.msg.d)
		}
	}
	if len(ds) > 0 {
		if err := m.store.SaveDeliveries(ds); err != nil {
			// The attempts happened; if these writes are lost the
			// deliveries are simply attempted again (at-least-once).
			m.log.Error("webhook: persist attempt outcomes", "count", len(ds), "err", err)
		}
	}
	for g := range locked {
		g.saveMu.RUnlock()
	}
	for _, o := range batch {
		m.system.Root.Send(o.self, o.msg)
		m.attempts.Done()
	}
}
