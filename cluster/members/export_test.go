package members

import (
	"context"
	"slices"

	"github.com/orderengine/orderengine/cluster/natsjs"
)

// SetTermsReader puts read in front of the member's reads of the lease
// terms (nil: the node's own again), so a test can answer as a replica
// that trails the member's writes.
func SetTermsReader(m *Member, read func(ctx context.Context, prefix string) (map[string]natsjs.Term, error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if read == nil {
		read = m.cfg.Node.Terms
	}
	m.readTerms = read
}

// ReadView makes one read of the terms, as a tick does, and returns
// whether the view is current (holds the member's last write) and the
// members it lists.
func ReadView(ctx context.Context, m *Member) (current bool, live []string) {
	v := m.read(ctx)
	return v.current, slices.Clone(v.members)
}
