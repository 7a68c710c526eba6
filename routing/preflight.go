package routing

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
)

// PreflightParams is the query of GET /v1/order-preflight, as received.
type PreflightParams struct {
	TokenIn, TokenOut, AmountIn, Wallet string
	SlippagePpm                         *int64
	IsStopLoss                          bool
}

// Check is one named preflight check.
type Check struct {
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

// PreflightResponse is the body of GET /v1/order-preflight: every check
// with pass/fail and a message, the verdict (every check passed), the
// block all reads were pinned to, the order kind checked and its fee legs.
type PreflightResponse struct {
	OK           bool     `json:"ok"`
	Block        uint64   `json:"block"`
	OrderKind    string   `json:"orderKind"`
	Checks       []Check  `json:"checks"`
	AmountOut    string   `json:"amountOut,omitempty"`
	MinAmountOut string   `json:"minAmountOut,omitempty"`
	FeeLegs      *FeeLegs `json:"feeLegs,omitempty"`
}

// Preflight answers GET /v1/order-preflight for a limit order (a stop-loss
// with isStopLoss=1) as it would be signed: the maker's balance and router
// allowance, route viability (Go route, verified by eth_call when a
// verifier is set), fee-leg consistency, and oracle prices for both tokens
// (required for triggered kinds). All chain reads use the venue
// snapshot's block. A failed check is reported in the answer; a node that
// cannot be reached is the CHAIN_UNAVAILABLE error instead, since the
// checks could not be made.
func (s *Service) Preflight(ctx context.Context, p PreflightParams) (*PreflightResponse, error) {
	in, out, amount, err := parseTrade(p.TokenIn, p.TokenOut, p.AmountIn)
	if err != nil {
		return nil, err
	}
	wallet, err := parseAddress("wallet", p.Wallet)
	if err != nil {
		return nil, err
	}
	slippage, err := parsePpm("slippagePpm", p.SlippagePpm, s.cfg.DefaultSlippagePpm)
	if err != nil {
		return nil, err
	}
	kind := config.KindLimit
	if p.IsStopLoss {
		kind = config.KindStopLoss
	}
	snap := s.cfg.Venues.Snapshot()
	block := new(big.Int).SetUint64(snap.Block())
	resp := &PreflightResponse{Block: snap.Block(), OrderKind: kind}
	balance, err := s.balanceChecks(ctx, block, in, wallet, amount)
	if err != nil {
		return nil, err
	}
	legs, legsCheck := s.feeCheck(ctx, wallet, kind, in, out)
	route, err := s.routeCheck(ctx, snap, in, out, amount, legs, slippage, wallet, resp)
	if err != nil {
		return nil, err
	}
	oracle, err := s.oracleCheck(ctx, block, kind, in, out)
	if err != nil {
		return nil, err
	}
	resp.Checks = append(balance, route, legsCheck, oracle)
	if legs != nil {
		resp.FeeLegs = legs
	}
	resp.OK = true
	for _, c := range resp.Checks {
		resp.OK = resp.OK && c.OK
	}
	return resp, nil
}

// call is an eth_call at block through the configured chain; an
// unreachable node is CHAIN_UNAVAILABLE (nodeErr). Without a chain client
// every read fails (a failed check, not an error of the request).
func (s *Service) call(ctx context.Context, block *big.Int, to common.Address, data []byte) ([]byte, error) {
	if s.cfg.Chain == nil {
		return nil, errors.New("no chain client configured")
	}
	ret, err := s.cfg.Chain.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, block)
	if err != nil {
		return nil, nodeErr("eth_call", err)
	}
	return ret, nil
}

func selector(sig string) []byte { return crypto.Keccak256([]byte(sig))[:4] }

func word(a common.Address) []byte { return common.LeftPadBytes(a[:], 32) }

// balanceChecks reads tokenIn.balanceOf(wallet) and allowance(wallet,
// router) at block. The error is CHAIN_UNAVAILABLE only.
func (s *Service) balanceChecks(ctx context.Context, block *big.Int, token, wallet common.Address, amount *uint256.Int) ([]Check, error) {
	read := func(data []byte) (*uint256.Int, error) {
		ret, err := s.call(ctx, block, token, data)
		if err != nil {
			return nil, err
		}
		if len(ret) != 32 {
			return nil, fmt.Errorf("read failed: %d bytes returned", len(ret))
		}
		return new(uint256.Int).SetBytes32(ret), nil
	}
	check := func(name, what string, v *uint256.Int, err error) Check {
		switch {
		case err != nil:
			return Check{Name: name, Message: "could not read the " + what + ": " + err.Error()}
		case v.Lt(amount):
			return Check{Name: name, Message: fmt.Sprintf("%s %s is below amountIn %s", what, v.Dec(), amount.Dec())}
		}
		return Check{Name: name, OK: true, Message: fmt.Sprintf("%s %s covers amountIn", what, v.Dec())}
	}
	bal, errB := read(append(selector("balanceOf(address)"), word(wallet)...))
	allow, errA := read(append(append(selector("allowance(address,address)"), word(wallet)...), word(s.cfg.Router)...))
	if err := errors.Join(unreachable(errB), unreachable(errA)); err != nil {
		return nil, err
	}
	out := []Check{check("balance", "maker balance", bal, errB), check("allowance", "router allowance", allow, errA)}
	if errA == nil && allow.Lt(amount) {
		out[1].Message += fmt.Sprintf("; approve the router %s for tokenIn before placing the order", s.cfg.Router.Hex())
	}
	return out, nil
}

// feeCheck resolves the fee legs the order must carry.
func (s *Service) feeCheck(ctx context.Context, wallet common.Address, kind string, in, out common.Address) (*FeeLegs, Check) {
	legs, err := s.cfg.Fees.FeeLegs(ctx, wallet, common.Address{}, kind, in, out)
	if err != nil {
		return nil, Check{Name: "feeLegs", Message: "fee legs unavailable: " + oe.AsError(err).Message}
	}
	if legs.Fees.Triggered.ReferralPpm == legs.Fees.Direct.ReferralPpm {
		return &legs, Check{Name: "feeLegs", Message: "fee policy cannot tell this order from a direct swap"}
	}
	return &legs, Check{Name: "feeLegs", OK: true, Message: fmt.Sprintf("sign referrer %s and referralFeePpm %d (%s × %s cell)",
		legs.Referrer, legs.Fees.Triggered.ReferralPpm, legs.Cell.OrderKind, legs.Cell.TokenClass)}
}

// routeCheck searches the route and, with a verifier, simulates it. The
// error is CHAIN_UNAVAILABLE only.
func (s *Service) routeCheck(ctx context.Context, snap *Snapshot, in, out common.Address, amount *uint256.Int,
	legs *FeeLegs, slippage uint32, wallet common.Address, resp *PreflightResponse) (Check, error) {
	r, err := s.cfg.Searcher.BestRoute(snap, Request{TokenIn: in, TokenOut: out, AmountIn: amount})
	if err != nil {
		return Check{Name: "route", Message: oe.AsError(err).Message}, nil
	}
	gross := r.AmountOut
	if s.cfg.Verifier != nil {
		if gross, err = s.cfg.Verifier.VerifyGross(ctx, snap.Block(), r, wallet); err != nil {
			if down := unreachable(err); down != nil {
				return Check{}, down
			}
			return Check{Name: "route", Message: "route failed in simulation: " + err.Error()}, nil
		}
	}
	net := gross
	if legs != nil {
		net = Amounts(gross, legs.Fees.Triggered).Net
	}
	resp.AmountOut, resp.MinAmountOut = net.Dec(), MinAmountOut(net, slippage).Dec()
	if net.IsZero() {
		return Check{Name: "route", Message: "the route delivers nothing after fees"}, nil
	}
	return Check{Name: "route", OK: true, Message: fmt.Sprintf("%d-path %s route delivers %s net (impact %d ppm)",
		len(r.Paths), r.Family, net.Dec(), r.PriceImpactPpm)}, nil
}

// oracleCheck reads latestRoundData for both tokens and the oracle's
// maxAge at block. Only triggered kinds need the oracle: for a limit order
// a missing price is reported but does not fail the verdict. The error is
// CHAIN_UNAVAILABLE only.
func (s *Service) oracleCheck(ctx context.Context, block *big.Int, kind string, tokens ...common.Address) (Check, error) {
	needed := kind != config.KindLimit
	c := Check{Name: "oracle", OK: true, Message: "oracle prices fresh for both tokens"}
	fail := func(msg string) Check {
		if !needed {
			return Check{Name: "oracle", OK: true, Message: msg + " (not needed for a limit order)"}
		}
		return Check{Name: "oracle", Message: msg}
	}
	if s.cfg.Oracle == (common.Address{}) {
		return fail("no oracle configured"), nil
	}
	ret, err := s.call(ctx, block, s.cfg.Oracle, selector("maxAge()"))
	if err != nil || len(ret) != 32 {
		return fail("oracle unreadable"), unreachable(err)
	}
	maxAge := new(big.Int).SetBytes(ret)
	head, err := s.cfg.Chain.HeaderByNumber(ctx, block)
	if err != nil {
		return fail("block header unreadable"), unreachable(nodeErr("block header", err))
	}
	for _, t := range tokens {
		answer, updated, err := readOracleRound(ctx, s.cfg.Chain, s.cfg.Oracle, t, block)
		if err != nil {
			return fail("oracle has no answer for " + t.Hex()), unreachable(err)
		}
		if answer.Sign() <= 0 {
			return fail("oracle price missing for " + t.Hex()), nil
		}
		if new(big.Int).Add(updated, maxAge).Cmp(new(big.Int).SetUint64(head.Time)) < 0 {
			return fail("oracle price stale for " + t.Hex()), nil
		}
	}
	return c, nil
}
