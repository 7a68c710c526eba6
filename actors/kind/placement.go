package kind

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Placement puts the identities of cluster kinds on the members of a
// cluster; cluster/members implements it over protoactor-go's cluster. A
// registry without one (a single node) keeps every identity on this node.
//
// A registry with a placement (Kind.Placement) keeps its fast paths for
// the identities this member owns: Send and Request go to the local actor
// by pointer, and Use runs on the caller's goroutine under the state's own
// mutex. Requests for an identity another member owns travel as bytes,
// encoded by the kind's Codec, and are served there by Registry.Serve.
//
// Ownership may disagree between members for a moment while the cluster
// changes, so an identity can briefly be active on two members: a kind
// whose state must stay single (an order) writes conditionally, never
// trusting placement alone.
type Placement interface {
	// Owns reports whether this member owns identity key of kind now.
	Owns(kind, key string) bool
	// Call sends req to the actor of key on the member that owns it and
	// returns its answer. ctx bounds the whole call, retries included; a
	// failed call may have been delivered, so the kinds that use it make
	// their remote requests safe to repeat.
	Call(ctx context.Context, kind, key string, req Message) (Message, error)
	// Tell delivers msg to the member that owns key, for the actor of key,
	// without waiting for it to be handled.
	Tell(ctx context.Context, kind, key string, msg Message) error
}

// Message is a request or an answer of a cluster kind as it crosses
// members: the codec's name of its type and its bytes.
type Message struct {
	Type string
	Data []byte
}

// Codec is how a cluster kind's identities and messages cross members. A
// kind declares the messages it accepts from other members by what Decode
// understands; everything else stays node-local.
type Codec[ID comparable] struct {
	// Key writes an identity as the cluster's identity string; Parse
	// reads it back.
	Key   func(ID) string
	Parse func(key string) (ID, error)
	// Encode writes a request, or an actor's answer, as a Message; Decode
	// reads it back into the value the actor (or its caller) expects.
	Encode func(msg any) (Message, error)
	Decode func(Message) (any, error)
}

// ErrRemote marks a request for an identity owned by another member that
// got no answer from it: the member could not be reached within the
// deadline (it is leaving, or the cluster is changing), or it failed to
// serve the request. The request may or may not have been handled; a
// caller retries later.
var ErrRemote = errors.New("kind: the member owning the identity did not answer")

// Owns reports whether id's actor lives on this member: always on a
// single node. A kind with shared state checks it before Use, which always
// works on this member's state.
func (r *Registry[ID, S]) Owns(id ID) bool {
	pl := r.kind.Placement
	return pl == nil || pl.Owns(r.kind.Name, r.kind.Codec.Key(id))
}

// remoteKey returns the key of id when another member owns it.
func (r *Registry[ID, S]) remoteKey(pl Placement, id ID) (string, bool) {
	key := r.kind.Codec.Key(id)
	return key, !pl.Owns(r.kind.Name, key)
}

// requestRemote sends msg to the member that owns id and decodes its
// answer.
func (r *Registry[ID, S]) requestRemote(ctx context.Context, p Placement, id ID, key string, msg any) (any, error) {
	c := r.kind.Codec
	req, err := c.Encode(msg)
	if err != nil {
		return nil, fmt.Errorf("%s %v: encode %T: %w", r.kind.Name, id, msg, err)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.kind.Timeout)
		defer cancel()
	}
	ans, err := p.Call(ctx, r.kind.Name, key, req)
	if err != nil {
		return nil, fmt.Errorf("%s %v: %w: %w", r.kind.Name, id, ErrRemote, err)
	}
	res, err := c.Decode(ans)
	if err != nil {
		return nil, fmt.Errorf("%s %v: decode the answer %q: %w", r.kind.Name, id, ans.Type, err)
	}
	return res, nil
}

// sendRemote tells msg to the member that owns id, in the background: a
// send does not wait. A message that cannot be delivered within the kind's
// Timeout is logged and dropped.
func (r *Registry[ID, S]) sendRemote(p Placement, id ID, key string, msg any) {
	m, err := r.kind.Codec.Encode(msg)
	if err != nil {
		r.log.Error("kind: encode a message for another member", "id", fmt.Sprint(id), "type", fmt.Sprintf("%T", msg), "err", err)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), r.kind.Timeout)
		defer cancel()
		if err := p.Tell(ctx, r.kind.Name, key, m); err != nil {
			r.log.Warn("kind: a message to another member was not delivered", "id", fmt.Sprint(id), "type", m.Type, "err", err)
		}
	}()
}

// Serve answers a request another member sent for an identity this member
// owns (cluster/members calls it): the message, decoded by the kind's
// codec, goes to the identity's actor here, and its answer goes back
// encoded. A one-way message (Tell) is sent, not requested, and answered
// with an empty Message. It serves whatever this member's view of the
// cluster says: during a change the sender's view wins.
func (r *Registry[ID, S]) Serve(ctx context.Context, key string, req Message, oneWay bool) (Message, error) {
	c := r.kind.Codec
	if c == nil {
		return Message{}, fmt.Errorf("kind: %s is not a cluster kind", r.kind.Name)
	}
	id, err := c.Parse(key)
	if err != nil {
		return Message{}, fmt.Errorf("kind: %s identity %q: %w", r.kind.Name, key, err)
	}
	msg, err := c.Decode(req)
	if err != nil {
		return Message{}, fmt.Errorf("kind: %s %q: decode %q: %w", r.kind.Name, key, req.Type, err)
	}
	if oneWay {
		r.sendLocal(id, msg)
		return Message{}, nil
	}
	res, err := r.requestLocal(ctx, id, msg)
	if err != nil {
		return Message{}, err
	}
	return c.Encode(res)
}

// PassivateMoved passivates the live identities that this member no
// longer owns (the cluster changed), so that their next request activates
// them on their owner, which loads their state afresh. Identities with
// something on its way to them stay until the next call. It returns how
// many it stopped.
func (r *Registry[ID, S]) PassivateMoved() int {
	if r.kind.Placement == nil {
		return 0
	}
	n := 0
	r.Each(func(id ID) {
		if !r.Owns(id) && r.Passivate(id) {
			n++
		}
	})
	return n
}

// timeoutOf returns how long a request may take: ctx's deadline or the
// kind's Timeout, the shorter.
func (r *Registry[ID, S]) timeoutOf(ctx context.Context) time.Duration {
	timeout := r.kind.Timeout
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(d))
	}
	return timeout
}
