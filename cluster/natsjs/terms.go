package natsjs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Term is one lease's current term as a reader of the LEASES stream sees
// it.
type Term struct {
	// Name is the lease's name; Holder its holder ("" once released).
	Name, Holder string
	// Seq is the term's message sequence.
	Seq uint64
	// Expires is when the term ends unless renewed: the message's stored
	// time plus its TTL, by the clock of the server that stored it.
	Expires time.Time
}

// Live reports whether the term has a holder and has not ended at now.
func (t Term) Live(now time.Time) bool { return t.Holder != "" && now.Before(t.Expires) }

// Terms reads the current term of every lease whose name starts with
// prefix, by name: the last message of each lease subject, through a
// direct get that any replica of the stream answers (this node's own
// when it has one). It needs neither the stream's leader nor JetStream's
// meta leader, so it answers during an election and on a node cut off
// from the others; it may then be behind the leader, which is what a
// view of the cluster (who is alive, who holds what) can afford: every
// write a term guards is conditional on it (Lease).
func (n *Node) Terms(ctx context.Context, prefix string) (map[string]Term, error) {
	msgs, err := n.lastOf(ctx, leaseStream, leaseSubject("*"))
	if err != nil {
		return nil, fmt.Errorf("natsjs: lease terms: %w", err)
	}
	out := map[string]Term{}
	for _, m := range msgs {
		name, ok := strings.CutPrefix(m.Subject, "lease.")
		if !ok || !strings.HasPrefix(name, prefix) || strings.HasPrefix(name, appliedPrefix) || name == horizonName {
			continue
		}
		t, err := decodeTerm(name, m)
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}

// decodeTerm reads a lease message of a direct get.
func decodeTerm(name string, m rawMsg) (Term, error) {
	var term leaseTerm
	if err := json.Unmarshal(m.Data, &term); err != nil {
		return Term{}, fmt.Errorf("natsjs: lease %s: %w", name, err)
	}
	return Term{Name: name, Holder: term.Holder, Seq: m.Seq, Expires: m.Time.Add(term.TTL)}, nil
}
