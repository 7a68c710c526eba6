package orders

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/routing"
)

// ChainClient is what the order service reads from the chain: contract
// code and eth_call (EIP-1271 signatures, balances, allowances, oracle).
type ChainClient interface {
	CodeAt(ctx context.Context, account common.Address, blockNumber *big.Int) ([]byte, error)
	CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
}

// BuildOptions adjust Build.
type BuildOptions struct {
	// Chain is the node client; nil means no chain (contract wallets are
	// refused, no funded flag, no oracle: triggered classes answer
	// NO_ORACLE unless Tokens says otherwise).
	Chain ChainClient
	// Outbox overrides the engine's event outbox (eng.Outbox).
	Outbox *persistence.Outbox
	// Tokens overrides the token registry (tests); nil builds it from the
	// configuration with oracle flags read from the configured oracle.
	Tokens func() *routing.Tokens
	// Idle passivates order actors after this long; zero uses
	// orders.actorIdle.
	Idle time.Duration
	// Config overrides the engine's configuration (serve passes the one the
	// chain hook filled with the deployed addresses); nil uses eng.Config.
	Config *config.Config
}

// Build wires the order service from an engine and its configuration:
// the router's signing domain, the verifier, the fee policy with the
// stored referral bindings, the token registry and the maker limiter.
func Build(ctx context.Context, eng *app.Engine, o BuildOptions) (*Service, error) {
	cfg := eng.Config
	if o.Config != nil {
		cfg = *o.Config
	}
	if !common.IsHexAddress(cfg.Chain.FeeVault) {
		return nil, fmt.Errorf("orders: chain.feeVault %q is not an address", cfg.Chain.FeeVault)
	}
	router := common.Address{}
	if cfg.Chain.Router != "" {
		if !common.IsHexAddress(cfg.Chain.Router) {
			return nil, fmt.Errorf("orders: chain.router %q is not an address", cfg.Chain.Router)
		}
		router = common.HexToAddress(cfg.Chain.Router)
	}
	chainID := cfg.Chain.ChainID
	if chainID == 0 {
		chainID = 4663
	}
	var backend chain.CodeAndCaller
	if o.Chain != nil {
		backend = o.Chain
	}
	verifier := chain.NewVerifier(chain.NewRouterDomain(chainID, router), backend)
	tokens := o.Tokens
	if tokens == nil {
		reg, err := routing.NewTokens(cfg.Routing.Tokens)
		if err != nil {
			return nil, err
		}
		if o.Chain != nil && common.IsHexAddress(cfg.Chain.Oracle) {
			reg = reg.WithOracle(oracleReader(ctx, o.Chain, common.HexToAddress(cfg.Chain.Oracle)))
		}
		tokens = func() *routing.Tokens { return reg }
	}
	outbox := o.Outbox
	if outbox == nil {
		outbox = eng.Outbox
	}
	orders := persistence.NewOrders(eng.Store, outbox)
	fees, err := routing.NewFeePolicy(cfg.Routing.FeePolicy, common.HexToAddress(cfg.Chain.FeeVault), tokens(), orders)
	if err != nil {
		return nil, err
	}
	ocfg := cfg.Orders.Resolved()
	idle := o.Idle
	if idle <= 0 {
		idle = ocfg.ActorIdle
	}
	d := Deps{
		System: eng.System, Store: eng.Store, Outbox: outbox, Orders: orders, Clock: eng.Clock, Log: eng.Log,
		Verifier: verifier, Fees: fees, Tokens: tokens, Makers: eng.Makers, Idle: idle, FundedTTL: ocfg.FundedCacheTTL,
	}
	if o.Chain != nil {
		d.Balances = o.Chain
		if cfg.Chain.Multicall != "" {
			d.Multicall = common.HexToAddress(cfg.Chain.Multicall)
		}
	}
	return New(d)
}

// oracleReader reports whether the oracle has a positive answer for a
// token (latestRoundData(token), answer > 0), read once per token.
func oracleReader(ctx context.Context, c ChainClient, oracle common.Address) func(common.Address) bool {
	sel := crypto.Keccak256([]byte("latestRoundData(address)"))[:4]
	return func(token common.Address) bool {
		data := make([]byte, 4+32)
		copy(data, sel)
		copy(data[4+12:], token[:])
		out, err := c.CallContract(ctx, ethereum.CallMsg{To: &oracle, Data: data}, nil)
		if err != nil || len(out) < 64 {
			return false
		}
		answer := new(big.Int).SetBytes(out[32:64])
		return out[32]&0x80 == 0 && answer.Sign() > 0
	}
}
