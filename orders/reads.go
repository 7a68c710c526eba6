package orders

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Get implements http.OrderService: the order, with "funded" for an open
// order when balances can be read, and its accountId when caller's account
// submitted it.
func (s *Service) Get(ctx context.Context, caller api.Caller, hash string) (api.Rendered, error) {
	h, err := chain.ParseHash("hash", hash)
	if err != nil {
		return nil, err
	}
	rec, ok, err := s.load(ctx, h)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
	}
	v := orderView{Account: ownOrder(caller, rec)}
	if s.funded != nil && rec.Status.Open() {
		if funded, ok := s.funded.funded(ctx, rec); ok {
			v.Funded = &funded
		}
	}
	v.Diagnostics = s.diagnostics(ctx, rec)
	out, err := appendOrderJSON(make([]byte, 0, 1024), rec, v)
	if err != nil {
		return nil, err
	}
	return api.Rendered(out), nil
}

// load reads order h from this node's store; in a cluster, an order the
// store lacks is first settled with the quorum (Deps.Settle), so that
// "not found" is only answered for an order no stream holds: a node
// whose store trails the cluster (it just restarted, resumed or healed,
// or another node accepted the order a moment ago) waits for its store,
// or answers 503 NO_QUORUM when it cannot tell.
func (s *Service) load(ctx context.Context, h common.Hash) (*orderstore.Record, bool, error) {
	rec, ok, err := s.orders.Load(h)
	if err != nil || ok || s.d.Settle == nil {
		return rec, ok, err
	}
	found, err := s.d.Settle(ctx, h)
	if err == nil && found {
		rec, ok, err = s.orders.Load(h)
		if err == nil && !ok {
			err = fmt.Errorf("%w: order %s settled but not in this node's store", persistence.ErrUnavailable, h.Hex())
		}
	}
	if errors.Is(err, persistence.ErrUnavailable) {
		s.log.Warn("orders: this node cannot tell whether an order exists", "order", h.Hex(), "err", err)
		return nil, false, &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
			Message: fmt.Sprintf("this node cannot tell now whether order %s exists (its store trails the cluster and the quorum did not answer in time): retry after Retry-After", h.Hex())}
	}
	return rec, ok, err
}

// Cancel implements http.OrderService: the maker's OrderCancel signature
// is verified first, then the order's actor cancels it if pending. Any
// other status, already cancelled included, is 409 NOT_CANCELLABLE
// (contract.md section 10, cancel rule 1).
func (s *Service) Cancel(ctx context.Context, _ api.Caller, hash, signature string) (*api.Success, error) {
	h, err := chain.ParseHash("hash", hash)
	if err != nil {
		return nil, err
	}
	sig, err := chain.ParseHexBytes("signature", signature, maxSignatureBytes)
	if err != nil {
		return nil, err
	}
	rec, ok, err := s.load(ctx, h)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
	}
	if err := s.d.Verifier.VerifyCancel(ctx, rec.Order.Maker, h, sig, nil); err != nil {
		e := orderengine.AsError(err)
		if e.Code == orderengine.CodeBadSignature {
			return nil, orderengine.Errorf(e.Code, "OrderCancel signature: %s (the maker signs OrderCancel(bytes32 orderHash) with orderHash %s, the hash in the path, under the domain of GET /v1/config)", e.Message, h.Hex())
		}
		return nil, err
	}
	if err := s.reg.Cancel(ctx, h); err != nil {
		return nil, err
	}
	return &api.Success{Success: true}, nil
}

// Fills implements http.OrderService.
func (s *Service) Fills(ctx context.Context, hash string) (api.Rendered, error) {
	h, err := chain.ParseHash("hash", hash)
	if err != nil {
		return nil, err
	}
	if _, ok, err := s.load(ctx, h); err != nil {
		return nil, err
	} else if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
	}
	fills, err := s.chain.Fills(h)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 16+len(fills)*400)
	out = append(out, `{"fills":[`...)
	for i := range fills {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendFillJSON(out, &fills[i])
	}
	return api.Rendered(append(out, "]}"...)), nil
}

// List implements http.OrderService: newest first, keyset-paginated; each
// order's accountId only when caller's account submitted it.
func (s *Service) List(_ context.Context, caller api.Caller, req api.ListOrdersRequest) (api.Rendered, error) {
	f := orderstore.ListFilter{Limit: req.Limit}
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 100
	}
	if req.Wallet != "" {
		w, err := chain.ParseAddress("wallet", req.Wallet)
		if err != nil {
			return nil, err
		}
		f.Maker = &w
	}
	if req.Status != "" {
		st, ok := orderstore.ParseStatus(req.Status)
		if !ok {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "status %q is not one of pending, active, filled, cancelled, expired, failed", truncate(req.Status))
		}
		f.Status = st
	}
	if req.OrderType != "" {
		c, err := chain.ParseClass(req.OrderType)
		if err != nil {
			return nil, err
		}
		f.Class = c
	}
	if req.Cursor != "" {
		after, err := orderstore.ParseCursor(req.Cursor)
		if err != nil {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "cursor: %v", err)
		}
		f.After = after
	}
	records, next, err := s.orders.List(f)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 64+len(records)*1024)
	out = append(out, `{"orders":[`...)
	for i, r := range records {
		if i > 0 {
			out = append(out, ',')
		}
		if out, err = appendOrderJSON(out, r, orderView{Account: ownOrder(caller, r)}); err != nil {
			return nil, err
		}
	}
	out = append(out, `],"nextCursor":`...)
	if next == "" {
		out = append(out, "null}"...)
	} else {
		out = append(out, '"')
		out = append(out, next...)
		out = append(out, `"}`...)
	}
	return api.Rendered(out), nil
}

// Orderbook implements http.OrderService: the open orders of a pair by
// ascending trigger price (then hash), keyset-paginated.
func (s *Service) Orderbook(ctx context.Context, req api.OrderbookRequest) (*api.OrderbookPage, error) {
	in, out, err := parsePair(req.Pair)
	if err != nil {
		return nil, err
	}
	var after *pair.Key
	if req.Cursor != "" {
		k, err := pair.ParseCursor(req.Cursor)
		if err != nil {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "cursor: %v", err)
		}
		after = &k
	}
	limit := req.Limit
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	page, err := s.d.Pairs.Page(ctx, pair.PairKey(in, out), limit, after)
	if err != nil {
		return nil, err
	}
	body := &api.OrderbookPage{Pair: in.Hex() + "-" + out.Hex(), Orders: page.Entries}
	if page.Next != nil {
		c := page.Next.Cursor()
		body.NextCursor = &c
	}
	return body, nil
}

// parsePair parses "<tokenIn>-<tokenOut>" (lowercase or checksummed). The
// two tokens must differ, as everywhere else in the API (a submit with the
// same token twice is INVALID_ORDER, the routing calls' INVALID_REQUEST).
func parsePair(pair string) (common.Address, common.Address, error) {
	a, b, ok := strings.Cut(pair, "-")
	if !ok {
		return common.Address{}, common.Address{}, orderengine.Errorf(orderengine.CodeInvalidRequest, "pair must be <tokenIn address>-<tokenOut address>")
	}
	in, err := chain.ParseAddress("pair tokenIn", a)
	if err != nil {
		return in, in, err
	}
	out, err := chain.ParseAddress("pair tokenOut", b)
	if err != nil {
		return in, out, err
	}
	if in == out {
		return in, out, orderengine.Errorf(orderengine.CodeInvalidRequest, "pair tokenOut must differ from tokenIn")
	}
	return in, out, nil
}

// ownOrder reports whether caller's account submitted rec: only that
// account sees who placed an order (its accountId); any other key sees the
// order itself.
func ownOrder(caller api.Caller, rec *orderstore.Record) bool {
	return caller.AccountID != "" && caller.AccountID == rec.AccountID
}
