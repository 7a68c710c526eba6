package routing

import (
	"context"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
)

// QuoteParams is the query of GET /v1/quote, as received.
type QuoteParams struct {
	TokenIn, TokenOut, AmountIn string
}

// VenueQuoteJSON is one venue of a quote.
type VenueQuoteJSON struct {
	Venue          string   `json:"venue"`
	Family         string   `json:"family"`
	Pools          []string `json:"pools"`
	Path           []string `json:"path"`
	AmountOut      string   `json:"amountOut"`
	PriceImpactPpm uint32   `json:"priceImpactPpm"`
	Gas            uint64   `json:"gas"`
}

// QuoteResponse is the body of GET /v1/quote: indicative gross outputs
// (before fee legs), best first, priced in Go at block (no eth_call).
type QuoteResponse struct {
	TokenIn  string           `json:"tokenIn"`
	TokenOut string           `json:"tokenOut"`
	AmountIn string           `json:"amountIn"`
	Block    uint64           `json:"block"`
	MidPrice string           `json:"midPrice"`
	Quotes   []VenueQuoteJSON `json:"quotes"`
}

// Quote answers GET /v1/quote.
func (s *Service) Quote(_ context.Context, p QuoteParams) (*QuoteResponse, error) {
	in, out, amount, err := parseTrade(p.TokenIn, p.TokenOut, p.AmountIn)
	if err != nil {
		return nil, err
	}
	snap := s.cfg.Venues.Snapshot()
	quotes, mid, err := s.cfg.Searcher.Quote(snap, Request{TokenIn: in, TokenOut: out, AmountIn: amount})
	if err != nil {
		return nil, err
	}
	resp := &QuoteResponse{TokenIn: in.Hex(), TokenOut: out.Hex(), AmountIn: amount.Dec(), Block: snap.Block(),
		MidPrice: s.wholePrice(in, mid).Dec()}
	for _, q := range quotes {
		v := VenueQuoteJSON{Family: q.Family, AmountOut: q.AmountOut.Dec(), PriceImpactPpm: q.PriceImpactPpm, Gas: q.Gas}
		for _, a := range q.Pools {
			v.Pools = append(v.Pools, a.Hex())
		}
		var syms []string
		for _, t := range q.Tokens {
			v.Path = append(v.Path, t.Hex())
			syms = append(syms, s.symbol(t))
		}
		v.Venue = q.Family + ":" + strings.Join(syms, ">")
		if len(q.Pools) == 1 {
			v.Venue = q.Family + ":" + q.Pools[0].Hex()
		}
		resp.Quotes = append(resp.Quotes, v)
	}
	return resp, nil
}

func (s *Service) symbol(t common.Address) string {
	if tok, ok := s.cfg.Tokens.Lookup(t); ok {
		return tok.Symbol
	}
	return t.Hex()
}

// wholePrice converts a raw-per-raw 128.128 price of tokenIn into raw
// tokenOut units per whole tokenIn (the specification's price convention).
// A token missing from the registry is taken as 18 decimals.
func (s *Service) wholePrice(tokenIn common.Address, priceX128 *uint256.Int) *uint256.Int {
	decimals := uint8(18)
	if tok, ok := s.cfg.Tokens.Lookup(tokenIn); ok {
		decimals = tok.Decimals
	}
	one := new(uint256.Int).Exp(uint256.NewInt(10), uint256.NewInt(uint64(decimals)))
	return roundX128(one, priceX128)
}

// roundX128 is amount × price / 2^128 rounded to the nearest unit: a
// displayed price should read 3000000000, not the 2999999999 that two
// floors give.
func roundX128(amount, priceX128 *uint256.Int) *uint256.Int {
	z := new(big.Int).Mul(amount.ToBig(), priceX128.ToBig())
	z.Add(z, new(big.Int).Lsh(big.NewInt(1), 127))
	z.Rsh(z, 128)
	out, overflow := uint256.FromBig(z)
	if overflow {
		return new(uint256.Int).SetAllOne()
	}
	return out
}

// SpotParams is the query of GET /api/spot, as received.
type SpotParams struct {
	TokenIn, TokenOut, AmountIn string
}

// SpotResponse is the body of GET /api/spot: price is raw tokenOut units
// per whole tokenIn at block, fee-free, from cached state; amountOut is
// amountIn at that price (no price impact) when amountIn was given.
type SpotResponse struct {
	TokenIn   string `json:"tokenIn"`
	TokenOut  string `json:"tokenOut"`
	Price     string `json:"price"`
	Block     uint64 `json:"block"`
	Venue     string `json:"venue"`
	AmountIn  string `json:"amountIn,omitempty"`
	AmountOut string `json:"amountOut,omitempty"`
}

// Spot answers GET /api/spot from the cached snapshot only: no simulation
// and no RPC.
func (s *Service) Spot(_ context.Context, p SpotParams) (*SpotResponse, error) {
	in, out, err := parsePair(p.TokenIn, p.TokenOut)
	if err != nil {
		return nil, err
	}
	var amount *uint256.Int
	if p.AmountIn != "" {
		if amount, err = parseAmount("amountIn", p.AmountIn); err != nil {
			return nil, err
		}
	}
	snap := s.cfg.Venues.Snapshot()
	price, venue, err := s.cfg.Searcher.Spot(snap, in, out)
	if err != nil {
		return nil, err
	}
	resp := &SpotResponse{TokenIn: in.Hex(), TokenOut: out.Hex(), Price: s.wholePrice(in, price).Dec(), Block: snap.Block(), Venue: venue}
	if amount != nil {
		resp.AmountIn, resp.AmountOut = amount.Dec(), roundX128(amount, price).Dec()
	}
	return resp, nil
}

// TokenJSON is one token of the search.
type TokenJSON struct {
	Address      string `json:"address"`
	Symbol       string `json:"symbol"`
	Name         string `json:"name"`
	Decimals     uint8  `json:"decimals"`
	Class        string `json:"class"`
	Oracle       bool   `json:"oracle"`
	Volume30dUSD string `json:"volume30dUsd"`
}

// TokensResponse is the body of GET /v1/tokens.
type TokensResponse struct {
	Tokens []TokenJSON `json:"tokens"`
}

// Tokens answers GET /v1/tokens?search=: symbol or name contains the
// query (case-insensitive), ranked by 30-day USD volume.
func (s *Service) Tokens(_ context.Context, search string) (*TokensResponse, error) {
	if utf8.RuneCountInString(search) > 64 {
		return nil, oe.Errorf(oe.CodeInvalidRequest, "search must be at most 64 characters")
	}
	resp := &TokensResponse{Tokens: []TokenJSON{}}
	for _, t := range s.cfg.Tokens.Search(search, s.cfg.Volumes) {
		resp.Tokens = append(resp.Tokens, TokenJSON{Address: t.Address.Hex(), Symbol: t.Symbol, Name: t.Name,
			Decimals: t.Decimals, Class: t.Class, Oracle: t.Oracle, Volume30dUSD: t.Volume30dUSD.String()})
	}
	return resp, nil
}
