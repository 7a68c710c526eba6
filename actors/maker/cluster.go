package maker

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/kind"
)

// KindName is the maker's kind in the actor registry and the cluster.
const KindName = "maker"

// Serve implements the cluster's handler of the maker kind (the
// admissions other members ask for): see kind.Registry.Serve. An
// admission is decided on the request's goroutine under the maker's
// state lock, as the owner's own submissions are (Admit), not through the
// maker actor's mailbox: the same decision without a hand-off to another
// goroutine and back on every remote submission.
func (m *Makers) Serve(ctx context.Context, key string, req kind.Message, oneWay bool) (kind.Message, error) {
	if req.Type != typeAdmit || oneWay {
		return m.reg.Serve(ctx, key, req, oneWay)
	}
	maker, err := codec.Parse(key)
	if err != nil {
		return kind.Message{}, fmt.Errorf("maker: identity %q: %w", key, err)
	}
	return codec.Encode(admitAnswer(m.admitHere(maker)))
}

// admitAnswer is the answer to another member's admission that err
// decided (nil: admitted).
func admitAnswer(err error) *AdmitAnswer {
	if err != nil {
		return &AdmitAnswer{Err: orderengine.AsError(err)}
	}
	return &AdmitAnswer{}
}

// ownerWait bounds how long a submission waits for its maker's owner
// before this member admits it on its own state.
const ownerWait = time.Second

// AdmitRequest asks the maker's owner to admit one submission (Admit on
// another member).
type AdmitRequest struct{}

// AdmitAnswer is the owner's decision: Err is nil when admitted.
type AdmitAnswer struct {
	Err *orderengine.Error
}

// admitRemote asks the maker's owner. When the owner cannot be reached
// (a member is leaving), this member admits on its own state of the maker
// instead: the open-order cap holds (every member counts every open
// order), the submit window is then this member's alone until the owner
// answers again.
func (m *Makers) admitRemote(ctx context.Context, maker common.Address) error {
	ctx, cancel := context.WithTimeout(ctx, ownerWait)
	defer cancel()
	res, err := m.reg.Request(ctx, maker, &AdmitRequest{})
	if err != nil {
		if errors.Is(err, kind.ErrRemote) {
			if now := time.Now().Unix(); now > m.warned.Load() && m.warned.Swap(now) != now {
				// One warning a second at most: an unreachable owner
				// fails every submission of its makers for seconds.
				m.log.Warn("maker: the maker's owner did not answer; admitting here", "maker", maker.Hex(), "err", err)
			}
			return m.admitHere(maker)
		}
		return err
	}
	a, ok := res.(*AdmitAnswer)
	if !ok {
		return fmt.Errorf("maker: the owner answered %T to an admission", res)
	}
	if a.Err != nil {
		return a.Err
	}
	return nil
}

// makerActor is a maker's actor: it owns the maker's state (the registry
// passivates it when nothing would be lost) and admits the submissions
// other members ask for.
type makerActor struct {
	m  *Makers
	st *state
}

// Receive implements actor.Actor.
func (a *makerActor) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(*AdmitRequest); ok {
		a.st.mu.Lock()
		err := a.m.admitLocked(a.st)
		a.st.mu.Unlock()
		ctx.Respond(admitAnswer(err))
	}
}

// The codec of the maker kind: the identity is the address in lowercase
// hex; an admission crosses as an empty request and a JSON answer.
var codec = &kind.Codec[common.Address]{
	Key: func(a common.Address) string { return hex.EncodeToString(a[:]) },
	Parse: func(key string) (common.Address, error) {
		var a common.Address
		b, err := hex.DecodeString(key)
		if err != nil || len(b) != len(a) {
			return a, fmt.Errorf("maker: %q is not an address", key)
		}
		copy(a[:], b)
		return a, nil
	},
	Encode: func(msg any) (kind.Message, error) {
		switch m := msg.(type) {
		case *AdmitRequest:
			return kind.Message{Type: typeAdmit}, nil
		case *AdmitAnswer:
			if m.Err == nil {
				return kind.Message{Type: typeAdmitted}, nil
			}
			b, err := json.Marshal(wireError{Code: m.Err.Code, Message: m.Err.Message, RetryAfter: m.Err.RetryAfterSeconds})
			return kind.Message{Type: typeAdmitted, Data: b}, err
		}
		return kind.Message{}, fmt.Errorf("maker: %T does not cross members", msg)
	},
	Decode: func(m kind.Message) (any, error) {
		switch m.Type {
		case typeAdmit:
			return &AdmitRequest{}, nil
		case typeAdmitted:
			if len(m.Data) == 0 {
				return &AdmitAnswer{}, nil
			}
			var w wireError
			if err := json.Unmarshal(m.Data, &w); err != nil {
				return nil, fmt.Errorf("maker: admission answer: %w", err)
			}
			return &AdmitAnswer{Err: &orderengine.Error{Code: w.Code, Message: w.Message, RetryAfterSeconds: w.RetryAfter}}, nil
		}
		return nil, fmt.Errorf("maker: unknown message %q", m.Type)
	},
}

const (
	typeAdmit    = "maker.admit"
	typeAdmitted = "maker.admitted"
)

// wireError is a refusal as it crosses members.
type wireError struct {
	Code       orderengine.Code `json:"code"`
	Message    string           `json:"message"`
	RetryAfter int              `json:"retryAfter,omitempty"`
}
