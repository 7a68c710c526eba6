package natsjs

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The probe asks every followed stream's leader, a few times a second,
// for the stream's last sequence (STREAM.INFO, which only a stream's
// leader answers). It tells what GET /readyz and the reads that may not
// answer 404 need to know through the quorum rather than from this node's
// own store: that every stream has a leader this node reaches, and how
// far this node's store is behind what the streams acknowledged
// (Lagging).
const (
	// probeEvery spaces the probes of a stream.
	probeEvery = 500 * time.Millisecond
	// probeTimeout bounds one probe.
	probeTimeout = time.Second
	// probeStale: a stream whose last answered probe is older than this
	// has no leader this node reaches now; a node whose last round of
	// probes ended longer ago than this (it was paused) knows nothing
	// current of the streams.
	probeStale = 2 * time.Second
	// leaderlessGrace: a stream without a leader this node reaches for
	// longer than this makes the node unready. A shorter gap is an
	// election (4 to 10 s), during which no node can write to the stream
	// and every node can serve everything else: marking them all unready
	// would only take the whole cluster out of its load balancer.
	leaderlessGrace = 12 * time.Second
	// LagBound is how far behind the streams a node's store may be and
	// the node still count as ready: it has applied everything the
	// streams had acknowledged LagBound ago.
	LagBound = time.Second
	// probeHistory keeps the probes of the last few seconds.
	probeHistory = 5 * time.Second
)

// StreamState is what the probe last learnt of one stream.
type StreamState struct {
	Name string `json:"name"`
	// Leader is the stream's leader as it answered; LastSeq the stream's
	// last sequence then; At when it answered ("" leader and zero time:
	// never).
	Leader  string    `json:"leader,omitempty"`
	LastSeq uint64    `json:"lastSeq"`
	At      time.Time `json:"at,omitzero"`
	// Applied is how far this node's store has applied the stream.
	Applied uint64 `json:"applied"`
	// Err is the last probe's failure ("" when it answered).
	Err string `json:"error,omitempty"`
}

// probe holds one stream's probes.
type probe struct {
	name string
	mu   sync.Mutex
	// seen are the answered probes of the last probeHistory, oldest
	// first.
	seen []probed
	err  error
}

type probed struct {
	at     time.Time
	leader string
	last   uint64
}

// StartProbe runs the probe of the streams this node follows (the
// materialiser's and the shared log's, started before) until Close.
func (n *Node) StartProbe() {
	n.mu.Lock()
	for _, f := range n.followers {
		n.probes = append(n.probes, &probe{name: f.stream})
	}
	probes := slices.Clone(n.probes)
	n.mu.Unlock()
	stop := make(chan struct{})
	done := make(chan struct{})
	n.onClose(func() { close(stop); <-done })
	go func() {
		defer close(done)
		t := time.NewTicker(probeEvery)
		defer t.Stop()
		for {
			var wg sync.WaitGroup
			for _, p := range probes {
				wg.Go(func() { n.probeOnce(p) })
			}
			wg.Wait()
			n.probeRound.Store(time.Now().UnixNano())
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
}

// probeOnce asks the stream's leader for its state.
func (n *Node) probeOnce(p *probe) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	resp, err := n.nc.RequestWithContext(ctx, "$JS.API.STREAM.INFO."+p.name, nil)
	var info struct {
		State struct {
			LastSeq uint64 `json:"last_seq"`
		} `json:"state"`
		Cluster *struct {
			Leader string `json:"leader"`
		} `json:"cluster"`
		Error *jetstream.APIError `json:"error"`
	}
	if err == nil {
		if err = json.Unmarshal(resp.Data, &info); err == nil && info.Error != nil {
			err = info.Error
		}
	}
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.err = err
	if err != nil {
		return
	}
	leader := n.opts.Cluster.Node
	if info.Cluster != nil {
		leader = info.Cluster.Leader
	}
	p.seen = append(p.seen, probed{at: now, leader: leader, last: info.State.LastSeq})
	i := 0
	for i < len(p.seen)-1 && now.Sub(p.seen[i].at) > probeHistory {
		i++
	}
	p.seen = p.seen[i:]
}

// state is the probe's latest answer, and the reference the node's store
// is held to: the stream's last sequence as the newest probe answered at
// least bound ago and at most bound+probeStale ago, or, when no probe
// answered then (the node was paused, or the stream was electing), as
// the latest probe answered.
func (p *probe) state(bound time.Duration) (latest probed, reference uint64, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.seen) > 0 {
		latest = p.seen[len(p.seen)-1]
	}
	reference = latest.last
	now := time.Now()
	for i := len(p.seen) - 1; i >= 0; i-- {
		age := now.Sub(p.seen[i].at)
		if age < bound {
			continue
		}
		if age <= bound+probeStale {
			reference = p.seen[i].last
		}
		break
	}
	return latest, reference, p.err
}

// Streams returns what the probe last learnt of every followed stream,
// with this node's applied position of each.
func (n *Node) Streams() []StreamState {
	n.mu.Lock()
	probes, followers := slices.Clone(n.probes), slices.Clone(n.followers)
	n.mu.Unlock()
	applied := map[string]uint64{}
	for _, f := range followers {
		a, _, _ := f.status()
		applied[f.stream] = a
	}
	out := make([]StreamState, 0, len(probes))
	for _, p := range probes {
		latest, _, err := p.state(0)
		st := StreamState{Name: p.name, Leader: latest.leader, LastSeq: latest.last, At: latest.at, Applied: applied[p.name]}
		if err != nil {
			st.Err = err.Error()
		}
		out = append(out, st)
	}
	return out
}

// quorumState reports, from the probes, whether this node may count as
// ready: its probes ran within probeStale (a node that was paused knows
// nothing current), every followed stream has had a leader this node
// reaches within leaderlessGrace, and this node's store has applied, of
// each stream, what the stream had acknowledged LagBound ago (or, when
// that is not known, what it last answered); nil when all hold.
func (n *Node) quorumState() error {
	n.mu.Lock()
	probes := slices.Clone(n.probes)
	followers := map[string]*follower{}
	for _, f := range n.followers {
		followers[f.stream] = f
	}
	n.mu.Unlock()
	if len(probes) == 0 {
		return nil
	}
	now := time.Now()
	if round := time.Unix(0, n.probeRound.Load()); now.Sub(round) > probeStale {
		return fmt.Errorf("this node has not asked the streams' leaders for %v (it was paused, or is starting)", now.Sub(round).Round(time.Millisecond))
	}
	for _, p := range probes {
		latest, reference, err := p.state(LagBound)
		if latest.at.IsZero() || now.Sub(latest.at) > leaderlessGrace {
			why := "no answer yet"
			if err != nil {
				why = err.Error()
			}
			return fmt.Errorf("stream %s has had no leader this node reaches since %s (%s)", p.name, latest.at.Format(time.RFC3339), why)
		}
		if f := followers[p.name]; f != nil {
			if applied, _, _ := f.status(); applied < reference {
				return fmt.Errorf("stream %s: applied up to %d here; the stream had %d", p.name, applied, reference)
			}
		}
	}
	return nil
}
