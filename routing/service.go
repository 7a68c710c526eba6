package routing

import (
	"context"
	"fmt"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// SnapshotSource gives the current venue state (VenueCache implements it).
type SnapshotSource interface {
	Snapshot() *Snapshot
}

// ServiceConfig wires a Service. Verifier and Chain may be nil: without a
// Verifier routes are served unverified (routeSim.verified false); without
// Chain, preflight cannot read balances, allowances or the oracle.
type ServiceConfig struct {
	Venues   SnapshotSource
	Searcher *Searcher
	Tokens   *Tokens
	Fees     *FeePolicy
	Verifier *Verifier
	Chain    ChainReader
	// Router, Executor and Oracle are the deployed contracts.
	Router, Executor, Oracle common.Address
	// DefaultSlippagePpm applies when a request names none.
	DefaultSlippagePpm uint32
	// VerifyTop is how many candidates are simulated (default 3).
	VerifyTop int
	// Volumes ranks the token search (nil: all zero).
	Volumes VolumeSource
}

// Service answers the routing endpoints from cached venue state: route
// (verified by eth_call), quote, preflight, spot and the token search. The
// HTTP layer only parses the query into these parameter structs.
type Service struct {
	cfg      ServiceConfig
	families map[string]bool
}

// NewService returns a Service.
func NewService(cfg ServiceConfig) *Service {
	if cfg.VerifyTop <= 0 {
		cfg.VerifyTop = 3
	}
	s := &Service{cfg: cfg, families: map[string]bool{}}
	for _, f := range DefaultFamilies() {
		s.families[f.Name()] = true
	}
	return s
}

// RouteParams is the query of GET /v1/route, as received.
type RouteParams struct {
	TokenIn, TokenOut, AmountIn string
	SlippagePpm                 *int64
	DirectSwap                  string
	Wallet, Referrer            string
	OrderType                   string
	Triggered                   string
	Exclude                     []string
}

// FeeAmountsJSON are the fee legs' amounts of a route, in tokenOut.
type FeeAmountsJSON struct {
	Protocol string `json:"protocol"`
	Referral string `json:"referral"`
	Keeper   string `json:"keeper"`
}

// HopJSON is one pool swap of a path.
type HopJSON struct {
	Pool      string `json:"pool"`
	Family    string `json:"family"`
	TokenIn   string `json:"tokenIn"`
	TokenOut  string `json:"tokenOut"`
	AmountIn  string `json:"amountIn"`
	AmountOut string `json:"amountOut"`
}

// PathJSON is one split leg of a route.
type PathJSON struct {
	SharePpm  uint32    `json:"sharePpm"`
	AmountIn  string    `json:"amountIn"`
	AmountOut string    `json:"amountOut"`
	Hops      []HopJSON `json:"hops"`
}

// ExecutionJSON is the executable form of a route: the Executor's calls
// (targets, calldatas and the token amount each call names, max-uint for
// "whole balance") and, on the direct path, the router transaction.
type ExecutionJSON struct {
	Router       string     `json:"router"`
	Executor     string     `json:"executor"`
	EntryPoint   string     `json:"entryPoint"`
	Targets      []string   `json:"targets"`
	Calldatas    []string   `json:"calldatas"`
	Amounts      []string   `json:"amounts"`
	MinAmountOut string     `json:"minAmountOut"`
	Tx           *TxJSON    `json:"tx,omitempty"`
	Paths        []PathJSON `json:"paths"`
	Family       string     `json:"family"`
	Gas          uint64     `json:"gas"`
	GasCostOut   string     `json:"gasCostOut"`
}

// TxJSON is a transaction to send as is.
type TxJSON struct {
	To   string `json:"to"`
	Data string `json:"data"`
}

// CandidateJSON is one venue family's best route and its simulation.
type CandidateJSON struct {
	Family         string  `json:"family"`
	AmountOut      string  `json:"amountOut"`
	GrossAmountOut string  `json:"grossAmountOut"`
	PriceImpactPpm uint32  `json:"priceImpactPpm"`
	Gas            uint64  `json:"gas"`
	Paths          int     `json:"paths"`
	Verified       bool    `json:"verified"`
	VerifiedOut    *string `json:"verifiedOut,omitempty"`
	Error          string  `json:"error,omitempty"`
}

// RouteSimJSON reports the eth_call verification of the candidates.
type RouteSimJSON struct {
	Verified     bool    `json:"verified"`
	Reranked     bool    `json:"reranked"`
	DisplacedDex *string `json:"displacedDex"`
	VerifiedOut  *string `json:"verifiedOut,omitempty"`
	DeliveryPpm  uint32  `json:"deliveryPpm"`
	Simulated    int     `json:"simulated"`
}

// SplitJSON is a split suggestion.
type SplitJSON struct {
	Kind           string `json:"kind"`
	Message        string `json:"message"`
	Paths          int    `json:"paths,omitempty"`
	GainPpm        uint32 `json:"gainPpm,omitempty"`
	Chunks         int    `json:"chunks,omitempty"`
	ChunkAmountIn  string `json:"chunkAmountIn,omitempty"`
	ChunkAmountOut string `json:"chunkAmountOut,omitempty"`
	ChunkImpactPpm uint32 `json:"chunkImpactPpm,omitempty"`
}

// RouteResponse is the body of GET /v1/route. Amounts are decimal strings
// in raw units; amountOut and minAmountOut are net of the fee cell the
// chosen path pays (the direct cell on directSwap=1, else the orderType's).
type RouteResponse struct {
	TokenIn        string          `json:"tokenIn"`
	TokenOut       string          `json:"tokenOut"`
	AmountIn       string          `json:"amountIn"`
	AmountOut      string          `json:"amountOut"`
	MinAmountOut   string          `json:"minAmountOut"`
	GrossAmountOut string          `json:"grossAmountOut"`
	Fees           FeeAmountsJSON  `json:"fees"`
	PriceImpactPpm uint32          `json:"priceImpactPpm"`
	SlippagePpm    uint32          `json:"slippagePpm"`
	DirectSwap     bool            `json:"directSwap"`
	Block          uint64          `json:"block"`
	Route          ExecutionJSON   `json:"route"`
	Splits         []SplitJSON     `json:"splits"`
	Candidates     []CandidateJSON `json:"candidates"`
	RouteSim       RouteSimJSON    `json:"routeSim"`
	FeeLegs        FeeLegs         `json:"feeLegs"`
}

// routeQuery is a parsed RouteParams.
type routeQuery struct {
	req       Request
	slippage  uint32
	direct    bool
	wallet    common.Address
	referrer  common.Address
	orderKind string
}

func (s *Service) parseRoute(p RouteParams) (routeQuery, error) {
	var q routeQuery
	var err error
	if q.req.TokenIn, q.req.TokenOut, err = parsePair(p.TokenIn, p.TokenOut); err != nil {
		return q, err
	}
	if q.req.AmountIn, err = parseAmount("amountIn", p.AmountIn); err != nil {
		return q, err
	}
	if q.slippage, err = parsePpm("slippagePpm", p.SlippagePpm, s.cfg.DefaultSlippagePpm); err != nil {
		return q, err
	}
	if q.wallet, err = parseOptAddress("wallet", p.Wallet); err != nil {
		return q, err
	}
	if q.referrer, err = parseOptAddress("referrer", p.Referrer); err != nil {
		return q, err
	}
	if p.Referrer != "" && q.referrer == (common.Address{}) {
		// The parameter sets feeLegs.referrer, and submission refuses a zero
		// referrer: omit it for the default payout instead.
		return q, oe.Errorf(oe.CodeInvalidRequest, "referrer must not be the zero address (omit it for the bound referrer or the fee vault)")
	}
	q.orderKind = p.OrderType
	if q.orderKind != "" && (q.orderKind == config.KindDirect || s.cfg.Fees.cells[q.orderKind] == nil) {
		return q, oe.Errorf(oe.CodeInvalidRequest, "orderType must be one of limit, stop_loss, take_profit, dca, trailing (omit it for a direct swap)")
	}
	switch p.DirectSwap {
	case "":
		q.direct = q.orderKind == ""
	case "0", "1":
		q.direct = p.DirectSwap == "1"
	default:
		return q, oe.Errorf(oe.CodeInvalidRequest, "directSwap must be 0 or 1")
	}
	if p.Triggered != "" && p.Triggered != "0" && p.Triggered != "1" {
		return q, oe.Errorf(oe.CodeInvalidRequest, "triggered must be 0 or 1")
	}
	for _, f := range p.Exclude {
		if !s.families[f] {
			return q, oe.Errorf(oe.CodeInvalidRequest, "exclude names unknown venue family %q", f)
		}
	}
	q.req.Exclude = p.Exclude
	return q, nil
}

// Route answers GET /v1/route: the best route, its fee legs, split
// suggestions, the best route per venue family, and the eth_call
// verification of the top candidates, serving the highest verified output.
func (s *Service) Route(ctx context.Context, p RouteParams) (*RouteResponse, error) {
	q, err := s.parseRoute(p)
	if err != nil {
		return nil, err
	}
	if err := s.cfg.Tokens.CheckTriggerable(q.orderKind, q.req.TokenIn, q.req.TokenOut); err != nil {
		return nil, err
	}
	legs, err := s.cfg.Fees.FeeLegs(ctx, q.wallet, q.referrer, q.orderKind, q.req.TokenIn, q.req.TokenOut)
	if err != nil {
		return nil, err
	}
	cell := legs.Fees.Triggered
	if q.direct {
		cell = legs.Fees.Direct
	}
	snap := s.cfg.Venues.Snapshot()
	res, err := s.cfg.Searcher.Search(snap, q.req)
	if err != nil {
		return nil, err
	}
	payout := common.HexToAddress(legs.Referrer)
	sims := s.verifyCandidates(ctx, snap.Block(), res.Candidates, q, cell, payout)
	chosen, sim := pickVerified(res.Candidates, sims, cell)
	if s.cfg.Verifier != nil && !sim.Verified {
		for _, c := range sims {
			if err := unreachable(c.err); err != nil {
				return nil, err
			}
		}
		return nil, oe.Errorf(oe.CodeNoRoute, "no candidate route executes in simulation at block %d: %v", snap.Block(), sims[0].err)
	}
	route := res.Candidates[chosen]
	amounts := Amounts(route.AmountOut, cell)
	minOut := MinAmountOut(amounts.Net, q.slippage)
	out := &RouteResponse{
		TokenIn: q.req.TokenIn.Hex(), TokenOut: q.req.TokenOut.Hex(), AmountIn: q.req.AmountIn.Dec(),
		AmountOut: amounts.Net.Dec(), MinAmountOut: minOut.Dec(), GrossAmountOut: amounts.Gross.Dec(),
		Fees:           FeeAmountsJSON{Protocol: amounts.Protocol.Dec(), Referral: amounts.Referral.Dec(), Keeper: amounts.Keeper.Dec()},
		PriceImpactPpm: route.PriceImpactPpm, SlippagePpm: q.slippage, DirectSwap: q.direct, Block: snap.Block(),
		Route:    s.execution(route, q, cell, payout, minOut),
		Splits:   splitsJSON(res.Suggestions),
		RouteSim: sim, FeeLegs: legs,
	}
	for i, c := range res.Candidates {
		out.Candidates = append(out.Candidates, candidateJSON(c, cell, sims[i]))
	}
	// Serve the served route first among the candidates.
	if chosen != 0 {
		out.Candidates[0], out.Candidates[chosen] = out.Candidates[chosen], out.Candidates[0]
	}
	return out, nil
}

// execution builds the route's calls and, on the direct path, the router's
// swap transaction with the caller's minimum.
func (s *Service) execution(r *Route, q routeQuery, cell config.FeeCell, payout common.Address, minOut *uint256.Int) ExecutionJSON {
	e := ExecutionJSON{Router: s.cfg.Router.Hex(), Executor: s.cfg.Executor.Hex(), EntryPoint: "fillOrder",
		MinAmountOut: minOut.Dec(), Family: r.Family, Gas: r.Gas, GasCostOut: dec(r.GasCostOut)}
	for _, c := range BuildCalls(r, s.cfg.Executor) {
		e.Targets = append(e.Targets, c.Target.Hex())
		e.Calldatas = append(e.Calldatas, hexutil.Encode(c.Data))
		e.Amounts = append(e.Amounts, c.Amount.Dec())
	}
	for _, p := range r.Paths {
		pj := PathJSON{SharePpm: p.SharePpm, AmountIn: p.AmountIn.Dec(), AmountOut: p.AmountOut.Dec()}
		for _, h := range p.Hops {
			pj.Hops = append(pj.Hops, HopJSON{Pool: h.Pool.Hex(), Family: h.Family, TokenIn: h.TokenIn.Hex(),
				TokenOut: h.TokenOut.Hex(), AmountIn: h.AmountIn.Dec(), AmountOut: h.AmountOut.Dec()})
		}
		e.Paths = append(e.Paths, pj)
	}
	if q.direct {
		e.EntryPoint = "swap"
		v := &Verifier{executor: s.cfg.Executor}
		params := v.SwapParams(r, SwapSim{Receiver: q.wallet, Referrer: payout, ReferralFeePpm: cell.ReferralPpm, MinAmountOut: minOut})
		e.Tx = &TxJSON{To: s.cfg.Router.Hex(), Data: hexutil.Encode(servicerouter.NewServiceRouter().PackSwap(params))}
	}
	return e
}

func splitsJSON(sugs []Suggestion) []SplitJSON {
	out := []SplitJSON{}
	for _, g := range sugs {
		out = append(out, SplitJSON{Kind: g.Kind, Message: g.Message, Paths: g.Paths, GainPpm: g.GainPpm,
			Chunks: g.Chunks, ChunkAmountIn: decOpt(g.ChunkAmountIn), ChunkAmountOut: decOpt(g.ChunkAmountOut),
			ChunkImpactPpm: g.ChunkImpactPpm})
	}
	return out
}

func decOpt(z *uint256.Int) string {
	if z == nil {
		return ""
	}
	return z.Dec()
}

func candidateJSON(r *Route, cell config.FeeCell, sim candidateSim) CandidateJSON {
	c := CandidateJSON{Family: r.Family, AmountOut: Amounts(r.AmountOut, cell).Net.Dec(), GrossAmountOut: r.AmountOut.Dec(),
		PriceImpactPpm: r.PriceImpactPpm, Gas: r.Gas, Paths: len(r.Paths)}
	if sim.net != nil {
		c.Verified = true
		v := sim.net.Dec()
		c.VerifiedOut = &v
	}
	if sim.err != nil {
		c.Error = fmt.Sprint(sim.err)
	}
	return c
}
