package order

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// In a cluster (Options.Placement) the order is a cluster kind placed by hash: every
// request for an order goes to its actor on the member that owns the hash,
// which loads the order from the journal (the replicated one, the truth)
// and appends each transition conditional on the version it loaded. The
// create is the exception: the accepting member stores a new order itself
// (Create), through the journal's conditional create, which refuses a hash
// taken anywhere in the cluster. Correctness never rests on placement:
// while the members disagree about an owner, two actors of one order may
// both append; the journal takes one and the other reloads (actor.go).

// KindName is the order's kind in the actor registry and the cluster.
const KindName = "order"

// Serve implements the cluster's handler of the order kind (the requests
// other members send to the orders this member owns): see
// kind.Registry.Serve.
func (r *Registry) Serve(ctx context.Context, key string, req kind.Message, oneWay bool) (kind.Message, error) {
	return r.reg.Serve(ctx, key, req, oneWay)
}

// PassivateMoved stops the actors of the orders this member no longer owns
// (the cluster changed), so that their owner loads them afresh. It returns
// how many stopped.
func (r *Registry) PassivateMoved() int { return r.reg.PassivateMoved() }

// remoteFailure maps a failed request to the client's error: a request
// whose owning member did not answer is SERVICE_UNAVAILABLE, and a retry
// is safe (every order request is idempotent).
func remoteFailure(h common.Hash, err error) error {
	if !errors.Is(err, kind.ErrRemote) {
		return err
	}
	return &orderengine.Error{
		Code:              orderengine.CodeServiceUnavailable,
		Message:           fmt.Sprintf("the cluster member that holds order %s did not answer; retry shortly", h.Hex()),
		RetryAfterSeconds: 1,
	}
}

// The order kind's codec: the identity is the hash in hex; a request
// crosses as JSON of its fields (a new record inside in the store's own
// binary codec), the answer as JSON with the record in that codec.
var codec = &kind.Codec[common.Hash]{
	Key: func(h common.Hash) string { return h.Hex() },
	Parse: func(key string) (common.Hash, error) {
		b, err := hexutil.Decode(key)
		if err != nil || len(b) != common.HashLength {
			return common.Hash{}, fmt.Errorf("order: %q is not an order hash", key)
		}
		return common.BytesToHash(b), nil
	},
	Encode: encodeMessage,
	Decode: decodeMessage,
}

// The message types as they cross members.
const (
	typeCreate   = "order.create"
	typeCancel   = "order.cancel"
	typeObserve  = "order.observe"
	typeNonce    = "order.nonce"
	typeResync   = "order.resync"
	typeExpire   = "order.expire"
	typeFail     = "order.fail"
	typeTrigger  = "order.trigger"
	typeStall    = "order.stall"
	typeWarm     = "order.warm"
	typeResponse = "order.response"
)

// wireCreate is a CreateRequest across members.
type wireCreate struct {
	Record []byte          `json:"record"`
	Bind   *common.Address `json:"bind,omitempty"`
}

// wireResponse is a Response across members.
type wireResponse struct {
	Record  []byte     `json:"record,omitempty"`
	Changed bool       `json:"changed,omitempty"`
	Err     *wireError `json:"err,omitempty"`
}

// wireError is a Response's error across members: the client error it
// carries (any other error arrives as INTERNAL with its text).
type wireError struct {
	Code       orderengine.Code `json:"code"`
	Message    string           `json:"message"`
	RetryAfter int              `json:"retryAfter,omitempty"`
	Details    json.RawMessage  `json:"details,omitempty"`
}

func encodeMessage(msg any) (kind.Message, error) {
	switch m := msg.(type) {
	case *CreateRequest:
		return jsonMessage(typeCreate, &wireCreate{Record: orderstore.MarshalRecord(m.Record), Bind: m.BindReferrer})
	case *Response:
		w := &wireResponse{Changed: m.Changed}
		if m.Record != nil {
			w.Record = orderstore.MarshalRecord(m.Record)
		}
		if m.Err != nil {
			e := orderengine.AsError(m.Err)
			w.Err = &wireError{Code: e.Code, Message: e.Message, RetryAfter: e.RetryAfterSeconds}
			if e.Details != nil {
				d, err := json.Marshal(e.Details)
				if err != nil {
					return kind.Message{}, err
				}
				w.Err.Details = d
			}
		}
		return jsonMessage(typeResponse, w)
	case *CancelRequest:
		return kind.Message{Type: typeCancel, Data: m.ID[:]}, nil
	case *WarmRequest:
		return kind.Message{Type: typeWarm}, nil
	case *ChainObserved:
		return jsonMessage(typeObserve, m)
	case *NonceInvalidated:
		return jsonMessage(typeNonce, m)
	case *ResyncRequest:
		return jsonMessage(typeResync, m)
	case *ExpireRequest:
		return jsonMessage(typeExpire, m)
	case *FailRequest:
		return jsonMessage(typeFail, m)
	case *TriggerRequest:
		return jsonMessage(typeTrigger, m)
	case *StallRequest:
		return jsonMessage(typeStall, m)
	}
	return kind.Message{}, fmt.Errorf("order: %T does not cross members", msg)
}

func jsonMessage(typ string, v any) (kind.Message, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return kind.Message{}, fmt.Errorf("order: encode %s: %w", typ, err)
	}
	return kind.Message{Type: typ, Data: b}, nil
}

func decodeMessage(m kind.Message) (any, error) {
	switch m.Type {
	case typeCreate:
		var w wireCreate
		if err := json.Unmarshal(m.Data, &w); err != nil {
			return nil, fmt.Errorf("order: decode %s: %w", m.Type, err)
		}
		rec, err := orderstore.UnmarshalRecord(w.Record)
		if err != nil {
			return nil, err
		}
		return &CreateRequest{Record: rec, BindReferrer: w.Bind}, nil
	case typeResponse:
		return decodeResponse(m.Data)
	case typeCancel:
		c := &CancelRequest{}
		if len(m.Data) != 0 && len(m.Data) != len(c.ID) {
			return nil, fmt.Errorf("order: decode %s: %d bytes", m.Type, len(m.Data))
		}
		copy(c.ID[:], m.Data)
		return c, nil
	case typeWarm:
		return &WarmRequest{}, nil
	case typeObserve:
		return decodeJSON[ChainObserved](m)
	case typeNonce:
		return decodeJSON[NonceInvalidated](m)
	case typeResync:
		return decodeJSON[ResyncRequest](m)
	case typeExpire:
		return decodeJSON[ExpireRequest](m)
	case typeFail:
		return decodeJSON[FailRequest](m)
	case typeTrigger:
		return decodeJSON[TriggerRequest](m)
	case typeStall:
		return decodeJSON[StallRequest](m)
	}
	return nil, fmt.Errorf("order: unknown message %q", m.Type)
}

func decodeJSON[T any](m kind.Message) (*T, error) {
	v := new(T)
	if err := json.Unmarshal(m.Data, v); err != nil {
		return nil, fmt.Errorf("order: decode %s: %w", m.Type, err)
	}
	return v, nil
}

func decodeResponse(data []byte) (*Response, error) {
	var w wireResponse
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("order: decode a response: %w", err)
	}
	res := &Response{Changed: w.Changed}
	if w.Record != nil {
		rec, err := orderstore.UnmarshalRecord(w.Record)
		if err != nil {
			return nil, err
		}
		res.Record = rec
	}
	if w.Err != nil {
		e := &orderengine.Error{Code: w.Err.Code, Message: w.Err.Message, RetryAfterSeconds: w.Err.RetryAfter}
		if len(w.Err.Details) > 0 {
			e.Details = w.Err.Details
		}
		res.Err = e
	}
	return res, nil
}
