// Package orders is the order API behind POST/GET/DELETE /v1/orders,
// /v1/orders/{hash}/fills and /v1/orderbook/{pair}: it implements
// http.OrderService on the order actors (actors/order), the maker actors
// (actors/maker: submit limits, open-order cap, referral binding) and the
// pair actors (actors/pair: the book and the executable orders).
//
// Submit runs every check that needs no disk or actor first, in this
// order: schema (INVALID_REQUEST), order content (INVALID_ORDER), traits
// (INVALID_TRAITS), deadline (ORDER_EXPIRED), top-level kind fields
// (INVALID_TRAITS), token registry and oracle (UNSUPPORTED_PAIR,
// NO_ORACLE), triggerAmountOut (INVALID_ORDER), signature (BAD_SIGNATURE,
// or FEE_PARAMS_MISMATCH for a referred wallet's v7.0 signature), what the
// chain indexer already knows (chainstate.go: INVALID_ORDER,
// ALREADY_EXISTS, or stored as active with its progress), fee fields
// (FEE_PARAMS_MISMATCH), per-maker limits (MAKER_RATE_LIMITED), duplicate
// (ALREADY_EXISTS). Then the order's actor stores it with Sync and the
// answer is sent. docs/orders.md has the table.
package orders

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
	"github.com/valyala/fastjson"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/maker"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
	"github.com/orderengine/orderengine/routing"
)

// Deps are what the service is built from.
type Deps struct {
	// Orders is the order journal and its reads.
	Orders *orderstore.Store
	// Chain is the indexer's records the submit path reads (chainstate.go).
	Chain *chainstore.Chain
	// Registry holds the order actors.
	Registry *order.Registry
	// Pairs serve the books.
	Pairs *pair.Pairs
	// Makers admit submissions (per-maker limits, open-order cap) and hold
	// the referral bindings.
	Makers *maker.Makers
	Clock  clock.Clock
	Log    *slog.Logger
	// Verifier checks order and cancel signatures (its backend, when set,
	// verifies EIP-1271 wallets).
	Verifier *chain.Verifier
	// Fees is the fee policy the route serves (its bindings are the maker
	// actors', so a route and a submit never disagree).
	Fees *routing.FeePolicy
	// Tokens returns the current token registry with oracle flags.
	Tokens func() *routing.Tokens
	// Balances, when set, answers the funded flag of open orders.
	Balances Balances
	// FundedTTL is how long a balance/allowance reading is reused (default
	// 1 s).
	FundedTTL time.Duration
	// Multicall is the chain's multicall contract (zero: none); with it,
	// Prefetch reads many makers' balances and allowances in one call.
	Multicall common.Address
	// Evaluated returns the last block the pairs evaluated (ok false:
	// none yet): the block an open order's diagnostics are as of (nil: no
	// diagnostics).
	Evaluated func() (ref pair.BlockRef, ok bool)
	// Settle, in a cluster, is asked before a read or a cancel answers
	// that an order does not exist: it brings this node's store up to the
	// quorum's state of the order (found: the order exists), or fails
	// when it cannot (persistence.ErrUnavailable: the answer is 503
	// NO_QUORUM, never a 404 this node cannot vouch for). Nil on one node,
	// whose store is the journal.
	Settle func(ctx context.Context, h common.Hash) (found bool, err error)
}

// Service is the order API: submit, cancel, reads and books.
type Service struct {
	d       Deps
	log     *slog.Logger
	orders  *orderstore.Store
	chain   *chainstore.Chain
	reg     *order.Registry
	parsers fastjson.ParserPool
	funded  *fundedCache
	diag    diagCache
}

// New builds the service.
func New(d Deps) (*Service, error) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Verifier == nil || d.Fees == nil || d.Tokens == nil || d.Makers == nil || d.Orders == nil ||
		d.Chain == nil || d.Registry == nil || d.Pairs == nil {
		return nil, fmt.Errorf("orders: service needs the journal, chain records, order registry, pairs, makers, verifier, fee policy and tokens")
	}
	s := &Service{d: d, log: d.Log.With("component", "orders"), orders: d.Orders, chain: d.Chain, reg: d.Registry}
	if d.Balances != nil {
		ttl := d.FundedTTL
		if ttl <= 0 {
			ttl = time.Second
		}
		s.funded = newFundedCache(d.Balances, d.Verifier.Domain().VerifyingContract(), d.Multicall, ttl, d.Clock)
	}
	return s, nil
}

// Covers reports whether maker holds and has approved amount of token at
// the latest block, from the funded cache (readings reused for
// Deps.FundedTTL); known is false without Deps.Balances or when the chain
// could not be read.
func (s *Service) Covers(ctx context.Context, token, maker common.Address, amount *big.Int) (covers, known bool) {
	if s.funded == nil || amount.Sign() < 0 {
		return false, false
	}
	a, overflow := uint256.FromBig(amount)
	if overflow {
		return false, true
	}
	return s.funded.covers(ctx, token, maker, a)
}

// Prefetch reads the balance and allowance of every (token, maker) pair
// the funded cache holds no fresh reading of, in one multicall, so the
// Covers calls that follow are answered from memory (the keeper interface
// calls it for the orders a request is about to examine). Without a
// multicall contract it does nothing.
func (s *Service) Prefetch(ctx context.Context, pairs [][2]common.Address) {
	if s.funded != nil {
		s.funded.prefetch(ctx, pairs)
	}
}

// Registry is the order actors' registry: the lifecycle API (Observe,
// InvalidateNonce, Resync, Expire, Fail, Trigger, Stall).
func (s *Service) Registry() *order.Registry { return s.reg }

// Orders is the order records' store.
func (s *Service) Orders() *orderstore.Store { return s.orders }

// Chain is the indexer's records the submit path reads (chainstate.go).
func (s *Service) Chain() *chainstore.Chain { return s.chain }

// OpenOrders returns maker's open orders as its maker actor counts them.
func (s *Service) OpenOrders(maker common.Address) int { return s.d.Makers.OpenOrders(maker) }

// Submit implements http.OrderService. The parser copies body, so
// nothing refers to it once Submit returns (the HTTP layer passes its
// request buffer).
func (s *Service) Submit(ctx context.Context, caller api.Caller, body []byte) (*api.Submitted, error) {
	p := s.parsers.Get()
	sub, err := parseSubmission(p, body)
	s.parsers.Put(p)
	if err != nil {
		return nil, err
	}
	rec, bind, err := s.check(ctx, sub, caller)
	if err == nil {
		err = s.reg.Create(ctx, rec, bind)
	}
	if err != nil {
		return nil, sub.withHashMismatch(err)
	}
	out := &api.Submitted{Success: true, OrderHash: rec.Hash.Hex()}
	if !strings.EqualFold(sub.clientHash, out.OrderHash) {
		out.Warning = fmt.Sprintf("orderHash %s differs from the server-computed hash %s, which is the order's hash", sub.clientHash, out.OrderHash)
	}
	return out, nil
}

// check runs the submit rules and returns the record to store and the
// referral binding to write with it.
func (s *Service) check(ctx context.Context, sub *submission, caller api.Caller) (*orderstore.Record, *common.Address, error) {
	o := &sub.order
	now := s.d.Clock.Now()
	traits, err := chain.ValidateOrder(sub.class, o, now.Unix())
	if err != nil {
		return nil, nil, err
	}
	if err := chain.CheckKindParams(sub.class, traits, &o.AmountIn, sub.kind); err != nil {
		return nil, nil, err
	}
	tokens := s.d.Tokens()
	tokIn, err := checkTokens(tokens, sub.class, o.TokenIn, o.TokenOut)
	if err != nil {
		return nil, nil, err
	}
	if o.TriggerAmountOut, err = chain.ResolveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, tokIn.Decimals, sub.suppliedTAO); err != nil {
		return nil, nil, err
	}
	hash, err := s.d.Verifier.VerifyOrder(ctx, o, sub.signature, nil)
	sub.hash = hash
	if err != nil {
		return nil, nil, s.signatureError(ctx, err, o.Maker)
	}
	progress, err := s.chainState(hash, o.Maker, traits.Nonce, &o.AmountIn)
	if err != nil {
		return nil, nil, err
	}
	kind := sub.class.String()
	bind, err := s.d.Fees.CheckOrderFees(ctx, routing.OrderFees{
		OrderKind: kind, Maker: o.Maker, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
		Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
	})
	if err != nil {
		return nil, nil, err
	}
	// The per-maker limit comes before any disk or actor work (so a
	// resubmitted duplicate counts against it); the order's actor then
	// refuses a taken hash with ALREADY_EXISTS.
	if err := s.d.Makers.Admit(ctx, o.Maker); err != nil {
		return nil, nil, err
	}
	rec := newRecord(sub, traits, hash, caller.AccountID, now)
	if progress != nil {
		withChainProgress(rec, progress)
	}
	var bindTo *common.Address
	if bind {
		r := o.Referrer
		bindTo = &r
	}
	return rec, bindTo, nil
}

// checkTokens returns tokenIn's registry entry: an unknown tokenIn (its
// decimals are needed for triggerAmountOut) is UNSUPPORTED_PAIR; the
// classes whose execution reads the oracle (stop_loss, take_profit,
// trailing and dca, see docs/protocol.md) need both tokens known
// (UNSUPPORTED_PAIR) with an oracle price (NO_ORACLE).
func checkTokens(tokens *routing.Tokens, c chain.Class, in, out common.Address) (routing.Token, error) {
	tokIn, okIn := tokens.Lookup(in)
	if !okIn {
		return tokIn, orderengine.Errorf(orderengine.CodeUnsupportedPair, "order.tokenIn %s is not a token of this engine (see GET /v1/tokens)", in.Hex())
	}
	if c == chain.ClassLimit {
		return tokIn, nil
	}
	tokOut, okOut := tokens.Lookup(out)
	if !okOut {
		return tokIn, orderengine.Errorf(orderengine.CodeUnsupportedPair, "order.tokenOut %s is not a token of this engine; %s orders need oracle prices for both tokens", out.Hex(), c)
	}
	for _, t := range []routing.Token{tokIn, tokOut} {
		if !t.Oracle {
			return tokIn, orderengine.Errorf(orderengine.CodeNoOracle, "token %s (%s) has no oracle price; %s orders need one for both tokens", t.Address.Hex(), t.Symbol, c)
		}
	}
	return tokIn, nil
}

// signatureError maps a refused signature: a v7.0 signature of a referred
// wallet is FEE_PARAMS_MISMATCH (contract.md section 6).
func (s *Service) signatureError(ctx context.Context, err error, maker common.Address) error {
	if reason, _ := chain.SignatureReasonOf(err); reason == chain.ReasonSignedV70 {
		if _, bound, berr := s.d.Makers.BoundReferrer(ctx, maker); berr == nil && bound {
			return orderengine.Errorf(orderengine.CodeFeeParamsMismatch, "referred wallet %s: %s", maker.Hex(), orderengine.AsError(err).Message)
		}
	}
	return err
}

// withHashMismatch names a client orderHash that differs from the server's
// in the message of a refusal (contract.md section 1), once the server has
// hashed the order; earlier refusals and non-API errors are returned as is.
func (sub *submission) withHashMismatch(err error) error {
	var e *orderengine.Error
	if sub.hash == (common.Hash{}) || strings.EqualFold(sub.clientHash, sub.hash.Hex()) || !errors.As(err, &e) || e.Code == orderengine.CodeInternal {
		return err
	}
	noted := *e
	noted.Message += fmt.Sprintf(" (the submitted orderHash %s differs from the server's %s for this order", sub.clientHash, sub.hash.Hex())
	if e.Code == orderengine.CodeBadSignature {
		noted.Message += ": the client hashed a different struct"
	}
	noted.Message += ")"
	return &noted
}

// newRecord builds the pending record of a checked submission.
func newRecord(sub *submission, t chain.Traits, hash common.Hash, account string, now time.Time) *orderstore.Record {
	now = now.UTC()
	rec := &orderstore.Record{
		Hash: hash, Version: 1, Class: sub.class, Status: orderstore.StatusPending,
		Order: sub.order, Signature: sub.signature,
		AccountID: account, CreatedAt: now, UpdatedAt: now,
	}
	switch sub.class {
	case chain.ClassDCA:
		rec.DCA = &orderstore.DCAParams{
			IntervalSeconds: t.IntervalSeconds, TotalExecutions: t.TotalExecutions,
			FlexibilityPpm: t.FlexibilityPpm(), ShortCircuit: t.Flags&chain.FlagShortCircuit != 0,
			PriceGated: t.Flags&chain.FlagPriceGated != 0,
		}
	case chain.ClassTrailing:
		rec.Trailing = &orderstore.TrailingParams{TrailPpm: t.TrailPpm(), DesignatedKeeper: sub.kind.DesignatedKeeper}
	}
	return rec
}
