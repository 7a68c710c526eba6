package orders

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/orderbook"
	"github.com/orderengine/orderengine/chain"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/persistence"
)

// Get implements http.OrderService: the stored record, plus "funded" for
// an open order when balances can be read.
func (s *Service) Get(ctx context.Context, hash string) (any, error) {
	h, err := chain.ParseHash("hash", hash)
	if err != nil {
		return nil, err
	}
	raw, ok, err := s.orders.Raw(h)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
	}
	if s.funded == nil || !openRaw(raw) {
		return json.RawMessage(raw), nil
	}
	var rec persistence.OrderRecord
	if err := persistence.DecodeOrderRecord(raw, &rec); err != nil {
		return nil, err
	}
	funded, ok := s.funded.funded(ctx, &rec)
	if !ok {
		return json.RawMessage(raw), nil
	}
	out := make([]byte, 0, len(raw)+16)
	out = append(out, raw[:len(raw)-1]...)
	if funded {
		out = append(out, `,"funded":true}`...)
	} else {
		out = append(out, `,"funded":false}`...)
	}
	return json.RawMessage(out), nil
}

// openRaw tells from the stored JSON whether the order is open, without
// decoding it.
func openRaw(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"status":"pending"`)) || bytes.Contains(raw, []byte(`"status":"active"`))
}

// Cancel implements http.OrderService: the maker's OrderCancel signature
// is verified first, then the order's actor cancels it if pending. An
// already cancelled order answers success again (idempotent).
func (s *Service) Cancel(ctx context.Context, _ apihttp.Caller, hash, signature string) (any, error) {
	h, err := chain.ParseHash("hash", hash)
	if err != nil {
		return nil, err
	}
	sig, err := chain.ParseHexBytes("signature", signature, maxSignatureBytes)
	if err != nil {
		return nil, err
	}
	rec, ok, err := s.orders.Load(h)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
	}
	maker := common.HexToAddress(rec.Order.Maker)
	if err := s.d.Verifier.VerifyCancel(ctx, maker, h, sig, nil); err != nil {
		e := orderengine.AsError(err)
		if e.Code == orderengine.CodeBadSignature {
			return nil, orderengine.Errorf(e.Code, "OrderCancel signature: %s (the maker signs OrderCancel(bytes32 orderHash) with orderHash %s, the hash in the path, under the domain of GET /v1/config)", e.Message, h.Hex())
		}
		return nil, err
	}
	if _, err := s.reg.Cancel(ctx, h); err != nil {
		return nil, err
	}
	return successBody{Success: true}, nil
}

type successBody struct {
	Success bool `json:"success"`
}

// Fills implements http.OrderService.
func (s *Service) Fills(_ context.Context, hash string) (any, error) {
	h, err := chain.ParseHash("hash", hash)
	if err != nil {
		return nil, err
	}
	if _, ok, err := s.orders.Raw(h); err != nil {
		return nil, err
	} else if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
	}
	fills, err := s.orders.Fills(h)
	if err != nil {
		return nil, err
	}
	for i := range fills {
		if common.IsHexAddress(fills[i].Keeper) {
			fills[i].Keeper = common.HexToAddress(fills[i].Keeper).Hex()
		}
	}
	return struct {
		Fills []persistence.OrderFill `json:"fills"`
	}{fills}, nil
}

// List implements http.OrderService: newest first, keyset-paginated.
func (s *Service) List(_ context.Context, req apihttp.ListOrdersRequest) (any, error) {
	f := persistence.ListFilter{Limit: req.Limit, Status: req.Status, Type: req.OrderType}
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
	if req.Status != "" && persistence.OrderStatusCode(req.Status) == 0 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "status %q is not one of pending, active, filled, cancelled, expired, failed", truncate(req.Status))
	}
	if req.OrderType != "" {
		if _, err := chain.ParseClass(req.OrderType); err != nil {
			return nil, err
		}
	}
	if req.Cursor != "" {
		after, err := persistence.ParseCursor(req.Cursor)
		if err != nil {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "cursor: %v", err)
		}
		f.After = after
	}
	records, next, err := s.orders.List(f)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 64+len(records)*900)
	out = append(out, `{"orders":[`...)
	for i, r := range records {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, r...)
	}
	out = append(out, `],"nextCursor":`...)
	if next == "" {
		out = append(out, "null}"...)
	} else {
		out = append(out, '"')
		out = append(out, next...)
		out = append(out, `"}`...)
	}
	return json.RawMessage(out), nil
}

// Orderbook implements http.OrderService: the open orders of a pair by
// ascending trigger price (then hash), keyset-paginated.
func (s *Service) Orderbook(ctx context.Context, req apihttp.OrderbookRequest) (any, error) {
	in, out, err := parsePair(req.Pair)
	if err != nil {
		return nil, err
	}
	var after *orderbook.Key
	if req.Cursor != "" {
		k, err := orderbook.ParseCursor(req.Cursor)
		if err != nil {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "cursor: %v", err)
		}
		after = &k
	}
	limit := req.Limit
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	page, err := s.books.Page(ctx, orderbook.PairKey(in, out), limit, after)
	if err != nil {
		return nil, err
	}
	body := orderbookBody{Pair: in.Hex() + "-" + out.Hex(), Orders: page.Entries}
	if page.Next != nil {
		c := page.Next.Cursor()
		body.NextCursor = &c
	}
	return body, nil
}

type orderbookBody struct {
	Pair       string            `json:"pair"`
	Orders     []orderbook.Entry `json:"orders"`
	NextCursor *string           `json:"nextCursor"`
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
