package kind

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
)

// bind is the first message of a host: the identity it serves and its
// slot.
type bind[ID comparable, S any] struct {
	id   ID
	slot *slot[S]
}

// envelope carries a caller's message, so the host can count it handled.
type envelope struct{ msg any }

// host is the actor every identity of a registry runs: it makes the kind's
// actor once its identity is known, hands it each message and counts the
// message handled, and takes the identity out of the registry when its
// actor fails.
type host[ID comparable, S any] struct {
	reg   *Registry[ID, S]
	id    ID
	slot  *slot[S]
	inner actor.Actor
}

// Receive implements actor.Actor.
func (h *host[ID, S]) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *bind[ID, S]:
		h.id, h.slot = msg.id, msg.slot
		h.inner = h.reg.kind.New(msg.id, msg.slot.state)
		h.deliver(&unwrapped{Context: ctx, msg: &Activated{}})
	case *envelope:
		if h.inner == nil {
			h.reg.log.Error("kind: a message before the identity", "type", fmt.Sprintf("%T", msg.msg))
			return
		}
		u := &unwrapped{Context: ctx, msg: msg.msg, handled: h.handled}
		defer u.done()
		h.deliver(u)
	case *actor.Restarting:
		h.reg.log.Error("kind: actor failed; it stops and starts again on the next message", "id", fmt.Sprint(h.id))
		if h.slot != nil {
			h.reg.forget(h.id, h.slot)
		}
		ctx.Stop(ctx.Self())
	case *actor.Started:
	case *actor.Stopping, *actor.Stopped:
		if h.inner != nil {
			h.inner.Receive(ctx)
		}
	default:
		if h.inner != nil { // a message sent to the PID directly (a timer's wake-up)
			h.deliver(&unwrapped{Context: ctx, msg: msg})
		}
	}
}

func (h *host[ID, S]) deliver(ctx actor.Context) { h.inner.Receive(ctx) }

// handled counts one caller's message handled: the identity is in use
// for one message less, and was seen now.
func (h *host[ID, S]) handled() {
	h.slot.seen.Store(h.reg.epoch.Load())
	h.slot.inflight.Add(-1)
}

// unwrapped is the host's context with the caller's message in place of
// the envelope: the kind's actor sees its own message types, responds to
// its requester, and may use every other part of the context.
//
// A caller's message counts as handled when the actor answers it, before
// the answer is sent, or else when the actor returns: a caller that got
// its answer finds the identity idle (Passivate and the sweep see no
// message in flight). An actor that works on after answering still
// finishes first: a stop is taken between messages.
type unwrapped struct {
	actor.Context
	msg     any
	handled func() // nil for the host's own messages
}

// Message implements actor.Context.
func (u *unwrapped) Message() any { return u.msg }

// Respond implements actor.Context: the message is handled, then answered.
func (u *unwrapped) Respond(response any) {
	u.done()
	u.Context.Respond(response)
}

// done counts the message handled, once.
func (u *unwrapped) done() {
	if u.handled != nil {
		u.handled()
		u.handled = nil
	}
}
