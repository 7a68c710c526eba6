package devchain

import (
	"math/big"
	"strings"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
)

// Venue families of the deployed pools (protocol.md, Venues).
const (
	FamilyCPMM       = "cpmm"
	FamilyStableSwap = "stableswap"
)

// Deployment is the live set of contracts on a chain: what routing reads
// for its token registry and venue list, and what GET /v1/config serves.
type Deployment struct {
	// ChainID of the chain the contracts live on.
	ChainID uint64 `json:"chainId"`
	// Block is the first block of the deployment; the indexer starts there.
	Block uint64 `json:"deployBlock"`
	// Router is the ServiceRouter v7.1, the EIP-712 verifying contract.
	Router common.Address `json:"router"`
	// Executor runs a route's venue calls for the router.
	Executor common.Address `json:"executor"`
	// Oracle holds Chainlink-style USD prices per token (8 decimals).
	Oracle common.Address `json:"oracle"`
	// FeeVault receives the protocol fee leg.
	FeeVault common.Address `json:"feeVault"`
	// Multicall batches eth_calls (zero when not deployed).
	Multicall common.Address `json:"multicall"`
	// Tokens are the deployed test tokens.
	Tokens []Token `json:"tokens"`
	// Pools are the deployed pools of every venue family.
	Pools []Pool `json:"pools"`
}

// Token is a deployed token.
type Token struct {
	Symbol   string         `json:"symbol"`
	Name     string         `json:"name"`
	Address  common.Address `json:"address"`
	Decimals uint8          `json:"decimals"`
	// Class is the fee class: stable, major or other.
	Class string `json:"class"`
	// WrappedNative marks the wrapped native coin.
	WrappedNative bool `json:"wrappedNative,omitempty"`
	// FeeOnTransfer marks the token the router refuses (for tests).
	FeeOnTransfer bool `json:"feeOnTransfer,omitempty"`
	// PriceUSD is the seeded oracle answer (8 decimals).
	PriceUSD *big.Int `json:"priceUsd"`
}

// Pool is a deployed two-token pool.
type Pool struct {
	Address common.Address `json:"address"`
	// Family is cpmm or stableswap.
	Family string         `json:"family"`
	Token0 common.Address `json:"token0"`
	Token1 common.Address `json:"token1"`
	// FeePpm is a cpmm pool's fee (3000 or 500); zero for stableswap.
	FeePpm uint32 `json:"feePpm,omitempty"`
}

// Token returns the token with symbol (case-insensitive).
func (d *Deployment) Token(symbol string) (Token, bool) {
	for _, t := range d.Tokens {
		if strings.EqualFold(t.Symbol, symbol) {
			return t, true
		}
	}
	return Token{}, false
}

// TokenAt returns the token at addr.
func (d *Deployment) TokenAt(addr common.Address) (Token, bool) {
	for _, t := range d.Tokens {
		if t.Address == addr {
			return t, true
		}
	}
	return Token{}, false
}

// ChainSection is the deployment as the configuration's chain section for an
// external node at rpcURL: what `devnet deploy` prints.
func (d *Deployment) ChainSection(rpcURL string) config.ChainConfig {
	c := config.ChainConfig{RPCURL: rpcURL, ChainID: d.ChainID}
	d.applyChain(&c)
	return c
}

func (d *Deployment) applyChain(c *config.ChainConfig) {
	c.ChainID = d.ChainID
	c.Router = d.Router.Hex()
	c.Executor = d.Executor.Hex()
	c.Oracle = d.Oracle.Hex()
	c.FeeVault = d.FeeVault.Hex()
	if d.Multicall != (common.Address{}) {
		c.Multicall = d.Multicall.Hex()
	}
	c.DeployBlock = d.Block
	c.Pools = make([]config.PoolConfig, 0, len(d.Pools))
	for _, p := range d.Pools {
		c.Pools = append(c.Pools, config.PoolConfig{
			Address: p.Address.Hex(), Family: p.Family,
			Token0: p.Token0.Hex(), Token1: p.Token1.Hex(), FeePpm: p.FeePpm,
		})
	}
}

// RegistryTokens is the token registry with the deployment's addresses:
// every entry of registry whose symbol the deployment has gets its address
// (and decimals), and deployed tokens the registry lacks are appended,
// except the fee-on-transfer token, which routing must never use.
func (d *Deployment) RegistryTokens(registry []config.TokenConfig) []config.TokenConfig {
	out := make([]config.TokenConfig, 0, len(registry)+len(d.Tokens))
	seen := map[string]bool{}
	for _, r := range registry {
		if t, ok := d.Token(r.Symbol); ok {
			r.Address = t.Address.Hex()
			r.Decimals = t.Decimals
			seen[strings.ToUpper(t.Symbol)] = true
		}
		out = append(out, r)
	}
	for _, t := range d.Tokens {
		if seen[strings.ToUpper(t.Symbol)] || t.FeeOnTransfer {
			continue
		}
		out = append(out, config.TokenConfig{
			Address: t.Address.Hex(), Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals, Class: t.Class,
		})
	}
	return out
}

// ApplyTo writes the deployment into cfg: the chain section's addresses and
// pools, and the addresses of the routing token registry.
func (d *Deployment) ApplyTo(cfg *config.Config) {
	d.applyChain(&cfg.Chain)
	cfg.Routing.Tokens = d.RegistryTokens(cfg.Routing.Tokens)
}
