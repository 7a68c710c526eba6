package members

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/automanaged"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/labstack/echo"
)

// Provider finds the members of the cluster: Automanaged for processes on
// several hosts, InMemory for several members in one process.
type Provider interface {
	// provider returns protoactor's provider for member m.
	provider(m *Member) (cluster.ClusterProvider, error)
	// gossip is the gossip interval the provider's members default to
	// (zero: protoactor's).
	gossip() time.Duration
}

// Automanaged returns protoactor's automanaged provider: every refresh
// (default 2 s) each member GETs /_health of every peer's membership
// endpoint (peers lists them all, this one included, as host:port), and
// the members that answer are the cluster. It needs no other server and no
// quorum: a fixed peer list. listen is this member's membership endpoint,
// bound on its own host (protoactor would bind every interface).
func Automanaged(listen string, peers []string, refresh time.Duration) Provider {
	if refresh <= 0 {
		refresh = 2 * time.Second
	}
	return &automanagedProvider{listen: listen, peers: peers, refresh: refresh}
}

type automanagedProvider struct {
	listen  string
	peers   []string
	refresh time.Duration
}

func (p *automanagedProvider) provider(m *Member) (cluster.ClusterProvider, error) {
	_, portStr, err := net.SplitHostPort(p.listen)
	if err != nil {
		return nil, fmt.Errorf("members: membership endpoint %q: %w", p.listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("members: membership endpoint %q: %w", p.listen, err)
	}
	ln, err := net.Listen("tcp", p.listen)
	if err != nil {
		return nil, fmt.Errorf("members: membership endpoint: %w", err)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Logger.SetOutput(io.Discard)
	e.Listener = ln
	kinds := make([]string, 0, len(m.kinds))
	for name := range m.kinds {
		kinds = append(kinds, name)
	}
	e.GET("/_health", func(c echo.Context) error {
		host, memberPort, err := m.system.GetHostPort()
		if err != nil {
			return c.NoContent(http.StatusServiceUnavailable)
		}
		return c.JSON(http.StatusOK, automanaged.NewNode(m.cfg.Name, m.system.ID, host, memberPort, port, kinds))
	})
	return automanaged.NewWithTesting(p.refresh, port, e, p.peers...), nil
}

func (p *automanagedProvider) gossip() time.Duration { return 0 }

// Agent is the in-memory registry of the members of clusters that run in
// one process (tests): every member registered with it sees the others.
type Agent struct {
	agent *test.InMemAgent
}

// NewAgent returns an empty agent.
func NewAgent() *Agent { return &Agent{agent: test.NewInMemAgent()} }

// Deregister removes member id (Member.ID) from the agent, as a real
// provider's health check does with a member that stopped answering: the
// others drop it from their topology. A member that leaves (Leave)
// deregisters itself.
func (a *Agent) Deregister(id string) { a.agent.DeregisterService(id) }

// InMemory returns protoactor's test provider over agent. Its members run
// in one process, so their gossip is off (see Config.Gossip).
func InMemory(agent *Agent) Provider { return &inMemoryProvider{agent: agent} }

type inMemoryProvider struct{ agent *Agent }

func (p *inMemoryProvider) provider(*Member) (cluster.ClusterProvider, error) {
	return test.NewTestProvider(p.agent.agent), nil
}

// gossip is long enough never to tick: members in one process share
// protoactor's gossip random source, which is not safe for concurrent use.
func (p *inMemoryProvider) gossip() time.Duration { return 24 * time.Hour }
