package nemesis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Bounds are the promises a campaign's history is checked against.
type Bounds struct {
	// Handover is how long after a fault's end webhook deliveries may
	// still be sent by two nodes (the old owner's term running out).
	Handover time.Duration
	// Converge bounds the time from a fault's end until every node's
	// membership lists every node; ConvergeCutOff (when set) does for a
	// node cut off from the others (isolate-leader, isolate-follower),
	// which comes back after the elections its raised Raft terms cause
	// (NATS Raft has no pre-vote) and takes its lease again.
	Converge, ConvergeCutOff time.Duration
	// KeyLimit and KeyWindow are the free key's order limit and window
	// with the stated error (admissions allowed in any window);
	// MakerLimit and MakerWindow the per-maker limit's.
	KeyLimit, MakerLimit   int
	KeyWindow, MakerWindow time.Duration
	// Nodes is the cluster's size.
	Nodes int
}

// Final is what every node read of the orders after the campaign healed:
// by order, by node, the GET answer's status and body.
type Final map[common.Hash][]FinalRead

// FinalRead is one node's answer to GET /v1/orders/{hash}.
type FinalRead struct {
	Status int
	Body   []byte
}

// Report is the outcome of Check: every violation, and what was measured.
type Report struct {
	Violations []string
	// Failover is, per fault, the failures of the nodes that kept a
	// quorum: how many, and the span from the first to the last.
	Failover []FaultStats
	// Converged is, per fault, how long after its end every node counted
	// every member (-1: never within the samples).
	Converged []time.Duration
}

// FaultStats are the failed writes of the nodes that kept a quorum
// around one fault.
type FaultStats struct {
	Fault    Fault
	Submits  int
	Failures int
	// First and Last failure, relative to the fault's start.
	First, Last time.Duration
}

// Window is the span from the first to the last failure.
func (s FaultStats) Window() time.Duration {
	if s.Failures == 0 {
		return 0
	}
	return s.Last - s.First
}

func (r *Report) violate(format string, args ...any) {
	r.Violations = append(r.Violations, fmt.Sprintf(format, args...))
}

// Check checks a campaign's history: ops are the clients' operations,
// faults the nemesis's, receipts the webhook receiver's, samples the
// membership gauges, final every node's last reading of every order that
// may exist.
func Check(b Bounds, ops []Op, faults []Fault, receipts []Receipt, samples []Sample, final Final) *Report {
	r := &Report{}
	accepted := map[common.Hash]Op{}
	for _, o := range ops {
		if o.Kind == OpSubmit && o.Status == http.StatusCreated {
			if prev, dup := accepted[o.Hash]; dup {
				r.violate("order %s accepted twice: %s and %s", short(o.Hash), prev, o)
				continue
			}
			accepted[o.Hash] = o
		}
	}
	checkCutOff(r, ops, faults)
	checkFalseNegatives(r, ops, accepted)
	checkFinal(r, ops, accepted, final)
	checkWebhooks(r, b, ops, faults, receipts)
	var keyOps, makerOps []Op
	for _, o := range ops {
		switch o.Kind {
		case OpKeyLimit:
			keyOps = append(keyOps, o)
		case OpMakerLimit:
			makerOps = append(makerOps, o)
		}
	}
	checkLimit(r, "the free key's order limit", keyOps, b.KeyLimit, b.KeyWindow, faults, b.Handover)
	checkLimit(r, "the per-maker limit", makerOps, b.MakerLimit, b.MakerWindow, faults, b.Handover)
	checkMembership(r, b, faults, samples)
	r.Failover = failover(ops, faults)
	return r
}

// checkCutOff fails every 201 of a node that was cut off from the
// majority for the whole request.
func checkCutOff(r *Report, ops []Op, faults []Fault) {
	for _, o := range ops {
		if o.Status != http.StatusCreated {
			continue
		}
		for _, f := range faults {
			if slices.Contains(f.Minority, o.Node) && !o.Invoke.Before(f.Start) && !o.Complete.After(f.End) {
				r.violate("201 from node%d while it was cut off from the majority (%s %s–%s): %s", o.Node+1, f.Class,
					f.Start.Format("15:04:05.000"), f.End.Format("15:04:05.000"), o)
			}
		}
	}
}

// checkFalseNegatives fails every 404 to a read or cancel of an order
// answered 201 before the request was sent.
func checkFalseNegatives(r *Report, ops []Op, accepted map[common.Hash]Op) {
	for _, o := range ops {
		if o.Status != http.StatusNotFound || (o.Kind != OpGet && o.Kind != OpFills && o.Kind != OpCancel) {
			continue
		}
		if a, ok := accepted[o.Hash]; ok && a.Complete.Before(o.Invoke) {
			r.violate("404 for an order accepted %v before: %s (accepted: %s)", o.Invoke.Sub(a.Complete).Round(time.Millisecond), o, a)
		}
	}
}

// checkFinal fails an accepted order that a node does not read, bodies
// that differ between nodes, and a cancel answered 200 whose order is not
// cancelled on every node.
func checkFinal(r *Report, ops []Op, accepted map[common.Hash]Op, final Final) {
	cancelled := map[common.Hash]Op{}
	for _, o := range ops {
		if o.Kind == OpCancel && o.Status == http.StatusOK {
			cancelled[o.Hash] = o
		}
	}
	for h := range accepted {
		reads, ok := final[h]
		if !ok {
			r.violate("order %s accepted but never read back", short(h))
			continue
		}
		for i, rd := range reads {
			if rd.Status != http.StatusOK {
				r.violate("order %s accepted (%s) reads %d on node%d after the faults healed", short(h), accepted[h], rd.Status, i+1)
			}
		}
	}
	for h, reads := range final {
		var ref []byte
		present := 0
		for _, rd := range reads {
			if rd.Status == http.StatusOK {
				present++
			}
		}
		if present > 0 && present < len(reads) {
			r.violate("order %s is read on %d of %d nodes after the faults healed", short(h), present, len(reads))
		}
		for i, rd := range reads {
			if rd.Status != http.StatusOK {
				continue
			}
			body := normalise(rd.Body)
			if ref == nil {
				ref = body
			} else if !bytes.Equal(ref, body) {
				r.violate("order %s reads differently on node%d: %s, and elsewhere: %s", short(h), i+1, body, ref)
			}
			if c, ok := cancelled[h]; ok && !bytes.Contains(body, []byte(`"status":"cancelled"`)) {
				r.violate("order %s cancelled (%s) reads %s on node%d", short(h), c, body, i+1)
			}
		}
	}
}

// normalise drops what a node computes at read time from an order's
// body: funded, and the diagnostics of an open order (the market, the
// maker's funds and the executable set as of the node's last evaluated
// block).
func normalise(body []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return body
	}
	delete(m, "funded")
	delete(m, "diagnostics")
	out, _ := json.Marshal(m)
	return out
}

// checkWebhooks fails a cancel answered 200 whose order.cancelled never
// arrived, an invalid signature, an event under two delivery ids, and a
// delivery sent by two nodes outside a fault and its handover.
func checkWebhooks(r *Report, b Bounds, ops []Op, faults []Fault, receipts []Receipt) {
	byOrder := map[common.Hash][]Receipt{}
	for _, rc := range receipts {
		if !rc.Valid {
			r.violate("webhook %s of %s from %s: invalid signature", rc.Delivery, short(rc.Order), rc.From)
		}
		if rc.Trigger == "order.cancelled" {
			byOrder[rc.Order] = append(byOrder[rc.Order], rc)
		}
	}
	for _, o := range ops {
		if o.Kind == OpCancel && o.Status == http.StatusOK && len(byOrder[o.Hash]) == 0 {
			r.violate("order.cancelled of %s never arrived (%s)", short(o.Hash), o)
		}
	}
	inFault := func(t time.Time) bool {
		for _, f := range faults {
			if f.Covers(t, b.Handover) {
				return true
			}
		}
		return false
	}
	for h, rcs := range byOrder {
		ids := map[string]bool{}
		from := map[string]Receipt{}
		for _, rc := range rcs {
			ids[rc.Delivery] = true
			if prev, ok := from[rc.Delivery]; ok && prev.From != rc.From && !inFault(rc.At) && !inFault(prev.At) {
				r.violate("delivery %s of %s sent by two nodes outside a fault's handover: %s at %s and %s at %s", rc.Delivery, short(h),
					prev.From, prev.At.Format("15:04:05.000"), rc.From, rc.At.Format("15:04:05.000"))
			}
			from[rc.Delivery] = rc
		}
		if len(ids) > 1 {
			r.violate("order.cancelled of %s under %d delivery ids", short(h), len(ids))
		}
	}
}

// checkLimit fails a window in which more admissions (answers other than
// 429; a request without an answer counts, it may have been admitted)
// than the stated bound came: limit in a window that no fault (widened by
// grace) overlaps, twice the limit in one that a fault overlaps (an
// owner unreachable, or an ownership change, may admit one more limit in
// the window that spans it: docs/cluster.md). Every window that starts at
// an admission is counted.
func checkLimit(r *Report, what string, ops []Op, limit int, window time.Duration, faults []Fault, grace time.Duration) {
	var admitted []time.Time
	for _, o := range ops {
		if o.Status != http.StatusTooManyRequests {
			admitted = append(admitted, o.Invoke)
		}
	}
	sort.Slice(admitted, func(i, j int) bool { return admitted[i].Before(admitted[j]) })
	for i, start := range admitted {
		n := 0
		for _, t := range admitted[i:] {
			if t.Sub(start) >= window {
				break
			}
			n++
		}
		bound, why := limit, "no fault"
		for _, f := range faults {
			if start.Before(f.End.Add(grace)) && start.Add(window).After(f.Start) {
				bound, why = 2*limit, f.Class
				break
			}
		}
		if n > bound {
			r.violate("%s: %d admitted in the %s from %s (%s); the bound is %d", what, n, window, start.Format("15:04:05.000"), why, bound)
			return
		}
	}
}

// checkMembership measures, for each fault, how long after its end every
// node counted every member, and fails a time over the bound.
func checkMembership(r *Report, b Bounds, faults []Fault, samples []Sample) {
	for k, f := range faults {
		end := time.Time{}
		if k+1 < len(faults) {
			end = faults[k+1].Start
		}
		d := converged(samples, b.Nodes, f.End, end)
		r.Converged = append(r.Converged, d)
		bound := b.Converge
		if strings.HasPrefix(f.Class, "isolate") && b.ConvergeCutOff > 0 {
			bound = b.ConvergeCutOff
		}
		switch {
		case d < 0:
			r.violate("after %s (healed %s) the nodes' membership never counted %d members on every node", f.Class, f.End.Format("15:04:05.000"), b.Nodes)
		case d > bound:
			r.violate("after %s the membership converged %v after the heal; the bound is %v", f.Class, d.Round(time.Millisecond), bound)
		}
	}
}

// converged returns how long after from the samples (up to until, or all
// when zero) show every node counting n members at every later sample;
// -1 when they never do.
func converged(samples []Sample, n int, from, until time.Time) time.Duration {
	last := map[int]time.Time{} // the last sample of each node not counting n
	seen := map[int]bool{}
	for _, s := range samples {
		if s.At.Before(from) || !until.IsZero() && s.At.After(until) {
			continue
		}
		seen[s.Node] = true
		if s.Members != n {
			last[s.Node] = s.At
		}
	}
	if len(seen) < n {
		return -1
	}
	worst := from
	for node := range seen {
		t, ok := last[node]
		if !ok {
			continue
		}
		// The node must count n at some sample after t.
		ok = false
		for _, s := range samples {
			if s.Node == node && s.At.After(t) && (until.IsZero() || !s.At.After(until)) && s.Members == n {
				ok = true
				break
			}
		}
		if !ok {
			return -1
		}
		if t.After(worst) {
			worst = t
		}
	}
	return worst.Sub(from)
}

// failover counts, per fault, the failed submits of the nodes outside its
// minority from its start to 10 s after its end.
func failover(ops []Op, faults []Fault) []FaultStats {
	var out []FaultStats
	for _, f := range faults {
		st := FaultStats{Fault: f}
		for _, o := range ops {
			if o.Kind != OpSubmit || slices.Contains(f.Minority, o.Node) || (f.Class == "kill" || f.Class == "pause") && slices.Contains(f.Nodes, o.Node) {
				continue
			}
			if o.Complete.Before(f.Start) || o.Invoke.After(f.End.Add(10*time.Second)) {
				continue
			}
			st.Submits++
			if o.Status == http.StatusCreated {
				continue
			}
			st.Failures++
			at := o.Invoke.Sub(f.Start)
			if st.Failures == 1 || at < st.First {
				st.First = at
			}
			if c := o.Complete.Sub(f.Start); c > st.Last {
				st.Last = c
			}
		}
		out = append(out, st)
	}
	return out
}
