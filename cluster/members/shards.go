package members

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orderengine/orderengine/cluster/natsjs"
)

// view is the cluster as the member read it at its last tick: the live
// members and who holds each shard.
type view struct {
	at time.Time
	// members are the live members' names, sorted; ids their holder
	// names (name/incarnation) by name.
	members []string
	ids     map[string]string
	// holders are the names of the shards' live holders ("" for none).
	holders []string
	// since is when each member was first seen live without a gap;
	// renewed when its term was last seen to move (a new sequence: it
	// renewed, so it reaches a quorum).
	since, renewed map[string]time.Time
	seqs           map[string]uint64
	// current: the read was made while this member held its lease and
	// holds the member's last write (not a stale replica's answer, nor
	// the last terms standing in for a failed read).
	current bool
}

func (v *view) live(name string) bool { return v != nil && v.ids[name] != "" }

// Timing of the duty loop, as multiples of the tick and the TTL.
const (
	// settleTicks: a holder hands a shard to its preferred member once
	// that member has been live this many ticks in a row.
	settleTicks = 8
	// graceTicks: a shard free this many ticks in a row is taken by any
	// fit member, not only its preferred one.
	graceTicks = 8
)

// run is the duty loop: every tick it reads the terms, keeps or gives up
// the member lease, and takes, renews or hands over shards.
func (m *Member) run() {
	defer close(m.done)
	t := time.NewTicker(m.cfg.Tick)
	defer t.Stop()
	var unfitSince time.Time
	var last Change
	for {
		fit := m.cfg.Fit == nil || m.cfg.Fit()
		switch {
		case fit:
			unfitSince = time.Time{}
		case unfitSince.IsZero():
			unfitSince = time.Now()
		}
		stepDown := !unfitSince.IsZero() && time.Since(unfitSince) >= m.cfg.TTL
		m.tick(fit, stepDown)
		if c := m.change(); !sameChange(c, last) {
			last = c
			m.notify(c)
		}
		select {
		case <-m.stopc:
			return
		case <-t.C:
		}
	}
}

// tick is one round of the loop. Its writes (acquires, renewals) may take
// up to half the TTL, the reads a second.
func (m *Member) tick(fit, stepDown bool) {
	rctx, rcancel := context.WithTimeout(context.Background(), time.Second)
	v := m.read(rctx)
	rcancel()
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.TTL/2)
	defer cancel()
	if stepDown {
		if m.member.Held() {
			m.log.Warn("members: this node has been unfit for duties for a whole TTL: giving them up", "node", m.cfg.Name)
		}
		m.giveUp(ctx)
		return
	}
	if m.holdMember(ctx, fit) {
		// The view read before the lease was taken lacks this member:
		// read it again, so that a member that says it joined sees itself
		// among the members and places its shards among them.
		rctx, rcancel := context.WithTimeout(ctx, time.Second)
		v = m.read(rctx)
		rcancel()
	}
	// A member has joined once it holds its lease and a read saw the term
	// it took, not an earlier one (a read answered by a replica that
	// trails its acquire, or the terms of an earlier read standing in for
	// a failed one: see read).
	if m.member.Held() && v.current && v.live(m.cfg.Name) {
		select {
		case <-m.joined:
		default:
			close(m.joined)
		}
	}
	if !m.member.Held() {
		// Not a member (yet, or no more): no shard is renewed, so every
		// one held ends with its term; the subscriptions go now.
		for _, s := range m.shards {
			m.unsubscribe(s)
		}
		return
	}
	m.holdShards(ctx, fit, v)
}

// errStaleRead: the terms were read from a replica of the lease stream
// that trails this member's own writes (see read).
var errStaleRead = errors.New("members: the lease terms read trail this member's own last renewal")

// read reads every member and shard term into a new view. When the read
// fails, the terms of the last read stand in, each live only until its
// end.
//
// The terms come from a direct get, which any replica of the lease stream
// answers (the node's own first), and a replica keeps answering while it
// trails: a node that restarted, was paused or cut off reads the terms as
// they were. A replica applies the stream in order, so a read that holds
// one of this member's writes holds every term written before it. A read
// must hold the member's write before its last (its acquire, until it
// renewed once): it may miss the latest renewal, as a replica outside the
// quorum that acknowledged it may for a moment, but trails by at most a
// renewal interval (a fifth of the TTL); one that does not counts as
// failed.
func (m *Member) read(ctx context.Context) *view {
	prev := m.view.Load()
	var want uint64
	held := m.member.Held()
	m.mu.Lock()
	if held {
		want = cmp.Or(m.memberSeqs[0], m.memberSeqs[1])
	}
	readTerms := m.readTerms
	m.mu.Unlock()
	terms, err := readTerms(ctx, "")
	if err == nil && want > 0 && terms[memberLease(m.cfg.Name)].Seq < want {
		err = errStaleRead
	}
	if err != nil {
		m.log.Debug("members: reading the lease terms failed; the last terms stand in", "node", m.cfg.Name, "err", err)
	}
	m.mu.Lock()
	if err != nil {
		terms = m.terms
	} else {
		m.terms = terms
	}
	m.mu.Unlock()
	now := time.Now()
	v := &view{at: now, ids: map[string]string{}, since: map[string]time.Time{}, renewed: map[string]time.Time{},
		seqs: map[string]uint64{}, holders: make([]string, len(m.shards)), current: err == nil && want > 0}
	for name, t := range terms {
		if !t.Live(now) {
			continue
		}
		if node, ok := strings.CutPrefix(name, "member-"); ok {
			v.ids[node] = t.Holder
			v.members = append(v.members, node)
			v.since[node], v.renewed[node], v.seqs[node] = now, now, t.Seq
			if prev != nil && !prev.since[node].IsZero() && prev.ids[node] == t.Holder {
				v.since[node] = prev.since[node]
			}
			if prev != nil && prev.seqs[node] == t.Seq {
				v.renewed[node] = prev.renewed[node]
			}
			continue
		}
		if i, err := strconv.Atoi(strings.TrimPrefix(name, "shard-")); err == nil && i >= 0 && i < len(v.holders) {
			v.holders[i] = nodeOf(t.Holder)
		}
	}
	slices.Sort(v.members)
	m.view.Store(v)
	return v
}

// nodeOf is the node name of a holder name (name/incarnation).
func nodeOf(holder string) string {
	name, _, _ := strings.Cut(holder, "/")
	return name
}

// holdMember takes the member lease when fit and keeps it renewed. It
// reports whether it took the lease now.
func (m *Member) holdMember(ctx context.Context, fit bool) bool {
	l := m.member
	switch {
	case l.Held():
		_ = m.renew(ctx, l, nil)
	case fit:
		ok, err := l.Acquire(ctx)
		switch {
		case ok:
			m.log.Info("members: member lease taken", "node", m.cfg.Name, "id", m.id, "term", l.Seq())
			m.markRenewed(nil)
			return true
		case err != nil && ctx.Err() == nil:
			m.log.Debug("members: taking the member lease failed", "node", m.cfg.Name, "err", err)
		}
	}
	return false
}

// holdShards renews the shards held, hands over those whose preferred
// member is settled elsewhere, and takes the free ones this member should
// hold.
func (m *Member) holdShards(ctx context.Context, fit bool, v *view) {
	now := time.Now()
	var wg sync.WaitGroup
	var leaving []handover
	for _, s := range m.shards {
		pref := preferredOf(s.i, v.members)
		held := s.lease.Held()
		if held || v.holders[s.i] != "" {
			// Not free: a free spell starts again from the next view
			// that shows the shard without a holder. A holder that hands
			// the shard over must not count the time before it held it,
			// or it would take the shard back at its next tick, before
			// the member it handed it to had its turn.
			m.mu.Lock()
			s.freeSince = time.Time{}
			m.mu.Unlock()
		}
		switch {
		case held && pref != "" && pref != m.cfg.Name && now.Sub(v.since[pref]) >= settleTicks*m.cfg.Tick:
			leaving = append(leaving, handover{s, pref})
		case held:
			m.subscribe(s)
			wg.Go(func() { _ = m.renew(ctx, s.lease, s) })
		case !fit:
			m.unsubscribe(s)
		case v.holders[s.i] == "":
			m.unsubscribe(s)
			m.mu.Lock()
			if s.freeSince.IsZero() {
				s.freeSince = now
			}
			free := now.Sub(s.freeSince)
			m.mu.Unlock()
			if pref == m.cfg.Name || free >= graceTicks*m.cfg.Tick {
				wg.Go(func() { m.take(ctx, s) })
			}
		default:
			m.unsubscribe(s)
		}
	}
	if len(leaving) > 0 {
		wg.Go(func() { m.handOver(ctx, leaving) })
	}
	wg.Wait()
}

// take acquires shard s and serves it.
func (m *Member) take(ctx context.Context, s *shard) {
	ok, err := s.lease.Acquire(ctx)
	if err != nil || !ok {
		return
	}
	m.markRenewed(s)
	m.subscribe(s)
	m.log.Info("members: shard taken", "shard", s.i, "node", m.cfg.Name, "term", s.lease.Seq())
}

// drainTimeout bounds how long a tick's handovers wait for the kinds to
// finish what they began for the shards (Config.Drain).
const drainTimeout = time.Second

// handover is a shard held that goes to its preferred member, to.
type handover struct {
	s  *shard
	to string
}

// handOver gives the shards of hs up to their preferred members: it lets
// the kinds finish what they began for them (Config.Drain, once for all
// of them), stops serving them, then releases them (a term ends at once,
// so the preferred member takes the shard at its next tick).
func (m *Member) handOver(ctx context.Context, hs []handover) {
	if d := m.cfg.Drain; d != nil {
		dctx, cancel := context.WithTimeout(ctx, min(drainTimeout, m.cfg.TTL/4))
		d(dctx, func(key string) bool {
			s := m.shardOf(key)
			return slices.ContainsFunc(hs, func(h handover) bool { return h.s == s })
		})
		cancel()
	}
	for _, h := range hs {
		m.unsubscribe(h.s)
		if err := h.s.lease.Release(ctx); err != nil {
			m.log.Warn("members: handing over a shard failed; its term ends with its TTL", "shard", h.s.i, "to", h.to, "err", err)
			continue
		}
		m.log.Info("members: shard handed over", "shard", h.s.i, "to", h.to)
	}
}

// giveUp releases every shard and the member lease (an unfit node).
func (m *Member) giveUp(ctx context.Context) {
	for _, s := range m.shards {
		m.unsubscribe(s)
		if s.lease.Held() {
			_ = s.lease.Release(ctx)
		}
	}
	if m.member.Held() {
		_ = m.member.Release(ctx)
	}
}

// errNotDue: a renewal not due yet.
var errNotDue = errors.New("members: renewal not due")

// renewEvery is how often a lease is renewed, as a share of its TTL: a
// holder keeps its term through a stream without a leader for up to
// four fifths of the TTL (an election after a node rejoins).
const renewEvery = 5

// renew renews l (of shard s, nil for the member lease) once a fifth of
// the TTL has passed since its last renewal. The first failure of a run
// of them is logged, and the renewal that ends the run.
func (m *Member) renew(ctx context.Context, l *natsjs.Lease, s *shard) error {
	m.mu.Lock()
	last := m.renewedAt(s)
	m.mu.Unlock()
	if time.Since(last) < m.cfg.TTL/renewEvery {
		return errNotDue
	}
	what := "the member lease"
	failing := &m.memberFailing
	if s != nil {
		what, failing = shardLease(s.i), &s.failing
	}
	start := time.Now()
	err := l.Renew(ctx)
	m.mu.Lock()
	switch {
	case err == nil:
		m.setRenewed(s, start)
		if s == nil {
			m.memberSeqs = [2]uint64{m.memberSeqs[1], l.Seq()}
		}
		if !failing.IsZero() {
			m.log.Info("members: renewed again", "lease", what, "node", m.cfg.Name, "after", time.Since(*failing).Round(time.Millisecond))
			*failing = time.Time{}
		}
	case failing.IsZero():
		*failing = start
		m.log.Warn("members: renewing failed; retrying until its term ends", "lease", what, "node", m.cfg.Name, "err", err)
	}
	m.mu.Unlock()
	if errors.Is(err, natsjs.ErrLeaseLost) && s != nil {
		m.unsubscribe(s)
	}
	return err
}

// renewedAt is when the lease of s (nil: the member lease) was last
// acquired or renewed; under mu.
func (m *Member) renewedAt(s *shard) time.Time {
	if s == nil {
		return m.memberRenewed
	}
	return s.renewed
}

func (m *Member) setRenewed(s *shard, at time.Time) {
	if s == nil {
		m.memberRenewed = at
		return
	}
	s.renewed = at
}

// markRenewed records an acquire of the lease of s (nil: the member
// lease): a new term, renewed from now, with no failures yet.
func (m *Member) markRenewed(s *shard) {
	m.mu.Lock()
	m.setRenewed(s, time.Now())
	if s == nil {
		m.memberFailing = time.Time{}
		m.memberSeqs = [2]uint64{0, m.member.Seq()}
	} else {
		s.failing = time.Time{}
	}
	m.mu.Unlock()
}

// preferredOf returns the member that should hold shard i: rendezvous
// hashing of the shard over the live members' names.
func preferredOf(i int, members []string) string {
	var best uint32
	owner := ""
	key := shardLease(i)
	for _, name := range members {
		if score := fnv1a(key, name); owner == "" || score > best {
			best, owner = score, name
		}
	}
	return owner
}

// change is what the member sees now.
func (m *Member) change() Change {
	c := Change{Members: m.Members()}
	for _, s := range m.shards {
		if s.lease.Held() {
			c.Held = append(c.Held, s.i)
		}
	}
	return c
}

func sameChange(a, b Change) bool {
	return slices.Equal(a.Members, b.Members) && slices.Equal(a.Held, b.Held)
}

// notify tells the listeners of a change.
func (m *Member) notify(c Change) {
	m.log.Info("members: the cluster changed", "node", m.cfg.Name, "members", c.Members, "shards", c.Held)
	if f := m.cfg.OnChange; f != nil {
		f(c)
	}
}
