package members

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"

	"github.com/orderengine/orderengine/actors/kind"
)

// The GrainRequest method indexes: a request waits for the handler's
// answer; a tell is acknowledged once handed to the handler.
const (
	methodRequest int32 = 0
	methodTell    int32 = 1
)

// The reasons of a GrainErrorResponse.
const (
	// reasonUnavailable: the member cannot serve now (it is stopping, or
	// does not host the kind); the caller tries again.
	reasonUnavailable = "unavailable"
	// reasonFailed: the handler failed; the caller gets the error.
	reasonFailed = "failed"
)

// The backoff between attempts of a call.
const (
	backoffFirst = 5 * time.Millisecond
	backoffMax   = 500 * time.Millisecond
)

// RemoteError is a request the owning member received and failed to
// serve.
type RemoteError struct {
	Member, Reason, Message string
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("members: %s answered %s: %s", e.Member, e.Reason, e.Message)
}

// Call implements kind.Placement: it sends req to the grain of key on the
// member that owns it and waits for the answer. Each attempt finds the
// owner in this member's view, activates the identity's grain there (or
// uses the grain found before) and sends the request, bounded by
// Config.Attempt and ctx; a timeout, a dead letter (the grain stopped) or
// an unavailable member makes it wait a growing backoff and try again,
// with the owner found afresh (the cluster may have changed), until ctx
// ends. A timed-out attempt may still be handled: requests must be safe to
// repeat.
func (m *Member) Call(ctx context.Context, kindName, key string, req kind.Message) (kind.Message, error) {
	res, err := m.call(ctx, kindName, key, &cluster.GrainRequest{MethodIndex: methodRequest, MessageTypeName: req.Type, MessageData: req.Data})
	if err != nil {
		return kind.Message{}, err
	}
	return kind.Message{Type: res.MessageTypeName, Data: res.MessageData}, nil
}

// Tell implements kind.Placement: it delivers msg to the grain of key on
// its owner, retrying like Call until the grain acknowledges it (the
// message is then queued for the identity's actor, not yet handled).
func (m *Member) Tell(ctx context.Context, kindName, key string, msg kind.Message) error {
	_, err := m.call(ctx, kindName, key, &cluster.GrainRequest{MethodIndex: methodTell, MessageTypeName: msg.Type, MessageData: msg.Data})
	return err
}

func (m *Member) call(ctx context.Context, kindName, key string, req *cluster.GrainRequest) (*cluster.GrainResponse, error) {
	if m.stopped.Load() {
		return nil, fmt.Errorf("members: %s %s: %w: this member has stopped", kindName, key, ErrUnreachable)
	}
	backoff := backoffFirst
	var last error
	for attempt := 1; ; attempt++ {
		res, retry, err := m.attempt(ctx, kindName, key, req)
		if err == nil {
			return res, nil
		}
		if !retry {
			return nil, err
		}
		last = err
		wait := backoff/2 + rand.N(backoff/2+1)
		backoff = min(2*backoff, backoffMax)
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, fmt.Errorf("members: %s %s: %w after %d attempts (%v): %v", kindName, key, ErrUnreachable, attempt, ctx.Err(), last)
		case <-timer.C:
		}
		if m.stopped.Load() {
			return nil, fmt.Errorf("members: %s %s: %w: this member has stopped: %v", kindName, key, ErrUnreachable, last)
		}
	}
}

// attempt makes one attempt of a call; retry reports whether another
// attempt may succeed.
func (m *Member) attempt(ctx context.Context, kindName, key string, req *cluster.GrainRequest) (res *cluster.GrainResponse, retry bool, err error) {
	timeout := m.cfg.Attempt
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(d))
	}
	if timeout <= 0 {
		return nil, true, context.DeadlineExceeded
	}
	v := m.view.Load()
	if v == nil {
		return nil, true, errors.New("no topology yet")
	}
	owner := v.owner(kindName, key)
	if owner == "" {
		return nil, false, fmt.Errorf("members: no member hosts kind %s", kindName)
	}
	pid, err := m.grain(kindName, key, owner, timeout)
	if err != nil {
		return nil, true, err
	}
	answer, err := m.system.Root.RequestFuture(pid, req, timeout).Result()
	if err != nil {
		m.pids.drop(kindName, key, pid)
		return nil, true, fmt.Errorf("%s at %s: %w", kindName, owner, err)
	}
	switch a := answer.(type) {
	case *cluster.GrainResponse:
		return a, false, nil
	case *cluster.GrainErrorResponse:
		if a.Reason == reasonUnavailable {
			m.pids.drop(kindName, key, pid)
			return nil, true, &RemoteError{Member: owner, Reason: a.Reason, Message: a.Message}
		}
		return nil, false, &RemoteError{Member: owner, Reason: a.Reason, Message: a.Message}
	default:
		return nil, false, fmt.Errorf("members: %s answered %T", owner, answer)
	}
}

// grain returns the PID of key's grain on owner: the one found before, or
// a new activation by owner's disthash placement actor.
func (m *Member) grain(kindName, key, owner string, timeout time.Duration) (*actor.PID, error) {
	if pid := m.pids.get(kindName, key); pid != nil && pid.Address == owner {
		return pid, nil
	}
	placement := actor.NewPID(owner, disthash.PartitionActivatorActorName)
	req := &cluster.ActivationRequest{ClusterIdentity: cluster.NewClusterIdentity(key, kindName)}
	res, err := m.system.Root.RequestFuture(placement, req, timeout).Result()
	if err != nil {
		return nil, fmt.Errorf("activate %s/%s on %s: %w", kindName, key, owner, err)
	}
	a, ok := res.(*cluster.ActivationResponse)
	if !ok || a.Pid == nil {
		return nil, fmt.Errorf("activate %s/%s on %s: no grain (answer %T)", kindName, key, owner, res)
	}
	m.pids.put(kindName, key, a.Pid)
	return a.Pid, nil
}

// pidCache remembers the grains this member called, by kind and identity.
// It is cleared when the cluster changes, and forgets a grain that failed.
// It holds at most pidCacheMax entries (then starts again empty).
type pidCache struct {
	mu sync.RWMutex
	m  map[string]*actor.PID
}

const pidCacheMax = 1 << 16

func pidKey(kindName, key string) string { return kindName + "/" + key }

func (c *pidCache) get(kindName, key string) *actor.PID {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[pidKey(kindName, key)]
}

func (c *pidCache) put(kindName, key string, pid *actor.PID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= pidCacheMax {
		c.m = make(map[string]*actor.PID)
	}
	c.m[pidKey(kindName, key)] = pid
}

// drop forgets key's grain if it is still pid.
func (c *pidCache) drop(kindName, key string, pid *actor.PID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := pidKey(kindName, key)
	if cur := c.m[k]; cur != nil && cur.Equal(pid) {
		delete(c.m, k)
	}
}

func (c *pidCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}
