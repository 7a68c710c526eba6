package routing

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"

	oe "github.com/orderengine/orderengine"
)

// Token is one entry of the token registry.
type Token struct {
	Address  common.Address
	Symbol   string
	Name     string
	Decimals uint8
	// Class is the fee class: stable, major or other.
	Class string
	// Oracle reports whether the oracle has a price for the token (set by
	// whoever reads the oracle; false until then).
	Oracle bool
}

// Tokens is the token registry: configuration entries that have an
// address (the dev chain fills dev tokens' addresses). It is immutable.
type Tokens struct {
	list   []Token
	byAddr map[common.Address]int
}

// NewTokens builds the registry from configuration. Entries without an
// address (tokens a dev chain has not deployed) are left out; a malformed
// address or a duplicate is an error.
func NewTokens(cfg []config.TokenConfig) (*Tokens, error) {
	t := &Tokens{byAddr: make(map[common.Address]int)}
	for _, c := range cfg {
		if c.Address == "" {
			continue
		}
		if !common.IsHexAddress(c.Address) {
			return nil, fmt.Errorf("routing: token %s has malformed address %q", c.Symbol, c.Address)
		}
		addr := common.HexToAddress(c.Address)
		if _, dup := t.byAddr[addr]; dup {
			return nil, fmt.Errorf("routing: token %s listed twice", addr.Hex())
		}
		class := c.Class
		if class == "" {
			class = config.ClassOther
		}
		t.byAddr[addr] = len(t.list)
		t.list = append(t.list, Token{Address: addr, Symbol: c.Symbol, Name: c.Name, Decimals: c.Decimals, Class: class})
	}
	return t, nil
}

// WithOracle returns a registry whose Oracle flags come from has.
func (t *Tokens) WithOracle(has func(common.Address) bool) *Tokens {
	n := &Tokens{list: append([]Token(nil), t.list...), byAddr: t.byAddr}
	for i := range n.list {
		n.list[i].Oracle = has(n.list[i].Address)
	}
	return n
}

// All returns every token in configuration order.
func (t *Tokens) All() []Token { return append([]Token(nil), t.list...) }

// Lookup returns the token at addr.
func (t *Tokens) Lookup(addr common.Address) (Token, bool) {
	i, ok := t.byAddr[addr]
	if !ok {
		return Token{}, false
	}
	return t.list[i], true
}

// Class is addr's fee class; an unknown token is "other", as on the router.
func (t *Tokens) Class(addr common.Address) string {
	if tok, ok := t.Lookup(addr); ok {
		return tok.Class
	}
	return config.ClassOther
}

// CheckTriggerable checks that a pair can be executed as an order of kind:
// every kind but limit reads the oracle on chain, so both tokens must be in
// the registry (UNSUPPORTED_PAIR otherwise) with an oracle price (NO_ORACLE
// otherwise). Direct swaps (empty kind) and limit orders need neither.
func (t *Tokens) CheckTriggerable(kind string, tokenIn, tokenOut common.Address) error {
	if kind == "" || kind == config.KindDirect || kind == config.KindLimit {
		return nil
	}
	for _, a := range []common.Address{tokenIn, tokenOut} {
		tok, ok := t.Lookup(a)
		if !ok {
			return oe.Errorf(oe.CodeUnsupportedPair, "%s is not a listed token; %s orders need listed tokens with oracle prices", a.Hex(), kind)
		}
		if !tok.Oracle {
			return oe.Errorf(oe.CodeNoOracle, "%s (%s) has no oracle price; %s orders are checked against the oracle", tok.Symbol, a.Hex(), kind)
		}
	}
	return nil
}

// Resolve turns a symbol (case-insensitive) or a 0x address into an
// address.
func (t *Tokens) Resolve(ref string) (common.Address, bool) {
	if common.IsHexAddress(ref) {
		return common.HexToAddress(ref), true
	}
	for _, tok := range t.list {
		if strings.EqualFold(tok.Symbol, ref) {
			return tok.Address, true
		}
	}
	return common.Address{}, false
}

// VolumeSource reports a token's 30-day USD volume (the volume store, once
// indexing lands). A nil source ranks every token at zero.
type VolumeSource interface {
	Volume30dUSD(token common.Address) *big.Int
}

// RankedToken is a search hit with its 30-day USD volume.
type RankedToken struct {
	Token
	Volume30dUSD *big.Int
}

// Search returns the tokens whose symbol or name contains query
// (case-insensitive; an empty query matches all), ranked by 30-day USD
// volume, then exact symbol matches first, then symbol, for a stable order.
func (t *Tokens) Search(query string, volumes VolumeSource) []RankedToken {
	q := strings.ToLower(strings.TrimSpace(query))
	var out []RankedToken
	for _, tok := range t.list {
		if q != "" && !strings.Contains(strings.ToLower(tok.Symbol), q) && !strings.Contains(strings.ToLower(tok.Name), q) {
			continue
		}
		vol := new(big.Int)
		if volumes != nil {
			if v := volumes.Volume30dUSD(tok.Address); v != nil {
				vol = v
			}
		}
		out = append(out, RankedToken{Token: tok, Volume30dUSD: vol})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := out[i].Volume30dUSD.Cmp(out[j].Volume30dUSD); c != 0 {
			return c > 0
		}
		ei, ej := strings.EqualFold(out[i].Symbol, q), strings.EqualFold(out[j].Symbol, q)
		if ei != ej {
			return ei
		}
		return strings.ToLower(out[i].Symbol) < strings.ToLower(out[j].Symbol)
	})
	return out
}

// OptionsFromConfig resolves the routing configuration's token references
// against the registry. Connectors the registry lacks (a dev token not
// deployed) are skipped and returned in missing, for the caller to log.
func OptionsFromConfig(cfg config.RoutingConfig, tokens *Tokens) (opts Options, missing []string) {
	opts = Options{
		MaxHops: cfg.MaxHops, SplitStepPpm: cfg.SplitStepPpm, MaxSplitPaths: cfg.MaxSplitPaths,
		GasPriceWei: cfg.GasPriceWei, GasBase: cfg.GasBase, GasPerHop: cfg.GasPerHop,
		GasPerHopDefault: cfg.GasPerHopDefault, ImpactSuggestPpm: cfg.ImpactSuggestPpm,
	}
	for _, ref := range cfg.Connectors {
		if addr, ok := tokens.Resolve(ref); ok {
			opts.Connectors = append(opts.Connectors, addr)
		} else {
			missing = append(missing, ref)
		}
	}
	if cfg.NativeToken != "" {
		if addr, ok := tokens.Resolve(cfg.NativeToken); ok {
			opts.Native = addr
		} else {
			missing = append(missing, cfg.NativeToken)
		}
	}
	return opts, missing
}
