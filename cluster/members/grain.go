package members

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"

	"github.com/orderengine/orderengine/actors/kind"
)

// grain is the cluster's actor of one identity of a hosted kind, made by
// disthash's placement actor on the member that owns the identity. It
// holds no state: it hands each request to the kind's handler (the kind's
// registry, whose actor for the identity owns the state) and answers with
// the handler's bytes. It stops after the kind's idle time without a
// request, and when the placement actor finds that the identity moved.
//
// Requests are served one at a time, in arrival order, like the
// identity's own actor serves them.
type grain struct {
	m    *Member
	kind *hostedKind
	key  string
}

// Receive implements actor.Actor.
func (g *grain) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *cluster.ClusterInit:
		if msg.Identity != nil {
			g.key = msg.Identity.Identity
		}
		ctx.SetReceiveTimeout(g.kind.idle)
	case *actor.ReceiveTimeout:
		ctx.Stop(ctx.Self())
	case *cluster.GrainRequest:
		ctx.Respond(g.serve(msg))
	}
}

// serve hands one request to the kind's handler. A panic in the handler
// answers an error instead of restarting the grain with the caller
// waiting.
func (g *grain) serve(req *cluster.GrainRequest) (answer any) {
	if g.m.stopped.Load() {
		return &cluster.GrainErrorResponse{Reason: reasonUnavailable, Message: "the member is stopping"}
	}
	if g.key == "" {
		return &cluster.GrainErrorResponse{Reason: reasonUnavailable, Message: "the grain has no identity yet"}
	}
	defer func() {
		if p := recover(); p != nil {
			g.m.log.Error("members: a handler panicked", "kind", g.kind.name, "key", g.key, "panic", fmt.Sprint(p))
			answer = &cluster.GrainErrorResponse{Reason: reasonFailed, Message: fmt.Sprintf("the handler of %s failed", g.kind.name)}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), g.m.cfg.Serve)
	defer cancel()
	msg := kind.Message{Type: req.MessageTypeName, Data: req.MessageData}
	res, err := g.kind.handler.Serve(ctx, g.key, msg, req.MethodIndex == methodTell)
	if err != nil {
		return &cluster.GrainErrorResponse{Reason: reasonFailed, Message: err.Error()}
	}
	return &cluster.GrainResponse{MessageTypeName: res.Type, MessageData: res.Data}
}
