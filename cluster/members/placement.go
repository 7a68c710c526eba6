package members

import (
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/cluster"
)

// Change is one change of the cluster's members, as this member saw it.
type Change struct {
	// Members are the addresses of every member now, this one included.
	Members []string
	// Joined and Left are the addresses that came and went.
	Joined, Left []string
}

// view is the cluster's topology as this member uses it to place
// identities: the members in protoactor's order (by id, descending), so
// that the rendezvous hash below picks the same owner as disthash's.
type view struct {
	members []viewMember
}

type viewMember struct {
	id, addr string
	kinds    []string
}

func (v *view) has(addr string) bool {
	for _, m := range v.members {
		if m.addr == addr {
			return true
		}
	}
	return false
}

// owner returns the address of the member that owns identity key of kind:
// rendezvous hashing, FNV-1a over the key then the member's address, the
// highest score wins (the first on a tie), among the members that host
// kind. It is protoactor's Rendezvous without its locks. "" when no member
// hosts kind.
func (v *view) owner(kind, key string) string {
	var best uint32
	owner := ""
	for i := range v.members {
		mb := &v.members[i]
		if !slices.Contains(mb.kinds, kind) {
			continue
		}
		if score := fnv1a(key, mb.addr); score > best {
			best, owner = score, mb.addr
		}
	}
	return owner
}

// fnv1a is FNV-1a (32 bits) over a then b.
func fnv1a(a, b string) uint32 {
	const (
		offset = 2166136261
		prime  = 16777619
	)
	h := uint32(offset)
	for i := 0; i < len(a); i++ {
		h ^= uint32(a[i])
		h *= prime
	}
	for i := 0; i < len(b); i++ {
		h ^= uint32(b[i])
		h *= prime
	}
	return h
}

// Owns implements kind.Placement: whether this member owns identity key
// of kind in its present view. Before the member has joined, and for a
// kind no member hosts, every identity is its own.
func (m *Member) Owns(kind, key string) bool {
	v := m.view.Load()
	if v == nil {
		return true
	}
	owner := v.owner(kind, key)
	return owner == "" || owner == m.Address()
}

// Owner returns the address of the member that owns identity key of kind
// in this member's view ("" before it has joined).
func (m *Member) Owner(kind, key string) string {
	v := m.view.Load()
	if v == nil {
		return ""
	}
	return v.owner(kind, key)
}

// topology takes a new topology from protoactor's event stream (on the
// goroutine of the provider that found it): the view moves, the cached
// grain addresses are dropped (an identity's owner may have changed), and
// the change is queued for the listeners.
func (m *Member) topology(t *cluster.ClusterTopology) {
	next := &view{members: make([]viewMember, 0, len(t.Members))}
	for _, mb := range t.Members {
		next.members = append(next.members, viewMember{id: mb.Id, addr: mb.Address(), kinds: slices.Clone(mb.Kinds)})
	}
	slices.SortFunc(next.members, func(a, b viewMember) int { return strings.Compare(b.id, a.id) })
	prev := m.view.Swap(next)
	m.pids.clear()
	c := Change{}
	for _, mb := range next.members {
		c.Members = append(c.Members, mb.addr)
		if prev == nil || !prev.has(mb.addr) {
			c.Joined = append(c.Joined, mb.addr)
		}
	}
	if prev != nil {
		for _, mb := range prev.members {
			if !next.has(mb.addr) {
				c.Left = append(c.Left, mb.addr)
			}
		}
	}
	if self := m.Address(); self != "" && next.has(self) {
		m.markJoined()
	}
	m.log.Info("members: the cluster changed", "members", c.Members, "joined", c.Joined, "left", c.Left)
	select {
	case m.changes <- c:
	default:
		// The listeners are far behind: they re-read the members anyway
		// (Change.Members is the whole set), so one dropped change
		// loses nothing but its Joined and Left.
		m.log.Warn("members: a membership change was not queued for the listeners")
	}
}

// notify tells the listeners of each change, in order, until the member
// stops.
func (m *Member) notify() {
	for {
		select {
		case <-m.done:
			return
		case c := <-m.changes:
			m.mu.Lock()
			watch := slices.Clone(m.watch)
			m.mu.Unlock()
			for _, f := range watch {
				f(c)
			}
		}
	}
}
