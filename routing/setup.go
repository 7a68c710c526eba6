package routing

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient/gethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// Stack is the routing subsystem built from configuration.
type Stack struct {
	Service  *Service
	Venues   *VenueCache
	Tokens   *Tokens
	Fees     *FeePolicy
	Searcher *Searcher
}

// SetupDeps are the collaborators Setup needs beyond configuration.
type SetupDeps struct {
	// Chain reads the node (an *ethclient.Client).
	Chain ChainReader
	// RPC is the raw client for eth_call with state overrides; nil serves
	// routes unverified.
	RPC *rpc.Client
	// Bindings resolves referral bindings (nil: none yet).
	Bindings ReferralBindings
	// Volumes ranks the token search (nil: zero volumes).
	Volumes VolumeSource
	// Log receives setup warnings; nil discards them.
	Log *slog.Logger
}

// Setup validates the routing configuration and builds the stack: the
// token registry (with oracle coverage read from the oracle), the fee
// policy, the searcher, the venue cache loaded with one Multicall call,
// the verifier and the service. cfg.Chain must carry the deployed
// addresses and pools (the dev chain fills them). Run Venues.Follow to keep
// the cache current.
func Setup(ctx context.Context, cfg config.Config, deps SetupDeps) (*Stack, error) {
	log := deps.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if deps.Chain == nil {
		return nil, fmt.Errorf("routing: setup needs a chain client")
	}
	if err := cfg.Routing.Validate(); err != nil {
		return nil, err
	}
	addr := func(name, v string) (common.Address, error) {
		if v == "" {
			return common.Address{}, nil
		}
		if !common.IsHexAddress(v) {
			return common.Address{}, fmt.Errorf("routing: chain.%s %q is not an address", name, v)
		}
		return common.HexToAddress(v), nil
	}
	var router, executorAddr, oracle, vault, mc common.Address
	var err error
	for _, f := range []struct {
		name, value string
		dst         *common.Address
	}{{"router", cfg.Chain.Router, &router}, {"executor", cfg.Chain.Executor, &executorAddr}, {"oracle", cfg.Chain.Oracle, &oracle},
		{"feeVault", cfg.Chain.FeeVault, &vault}, {"multicall", cfg.Chain.Multicall, &mc}} {
		if *f.dst, err = addr(f.name, f.value); err != nil {
			return nil, err
		}
	}
	if executorAddr == (common.Address{}) && router != (common.Address{}) {
		if executorAddr, err = readAddress(ctx, deps.Chain, router, "executor()"); err != nil {
			return nil, fmt.Errorf("routing: router executor: %w", err)
		}
	}
	tokens, err := NewTokens(cfg.Routing.Tokens)
	if err != nil {
		return nil, err
	}
	tokens = tokens.WithOracle(OracleCoverage(ctx, deps.Chain, oracle))
	fees, err := NewFeePolicy(cfg.Routing.FeePolicy, vault, tokens, deps.Bindings)
	if err != nil {
		return nil, err
	}
	opts, missing := OptionsFromConfig(cfg.Routing, tokens)
	if len(missing) > 0 {
		log.Warn("routing: tokens named in configuration are not deployed", "tokens", missing)
	}
	var refs []PoolRef
	for _, p := range cfg.Chain.Pools {
		if !common.IsHexAddress(p.Address) {
			return nil, fmt.Errorf("routing: pool address %q", p.Address)
		}
		refs = append(refs, PoolRef{Address: common.HexToAddress(p.Address), Family: p.Family})
	}
	venues, err := NewVenueCache(deps.Chain, mc, refs, DefaultFamilies())
	if err != nil {
		return nil, err
	}
	if err := venues.Load(ctx, nil); err != nil {
		return nil, err
	}
	st := &Stack{Venues: venues, Tokens: tokens, Fees: fees, Searcher: NewSearcher(opts)}
	var verifier *Verifier
	if deps.RPC != nil {
		verifier = NewVerifier(gethclient.New(deps.RPC), router, executorAddr, DefaultTokenLayout())
	}
	st.Service = NewService(ServiceConfig{
		Venues: venues, Searcher: st.Searcher, Tokens: tokens, Fees: fees, Verifier: verifier, Chain: deps.Chain,
		Router: router, Executor: executorAddr, Oracle: oracle, DefaultSlippagePpm: cfg.Routing.DefaultSlippagePpm,
		VerifyTop: cfg.Routing.VerifyTop, Volumes: deps.Volumes,
	})
	return st, nil
}

func readAddress(ctx context.Context, chain ChainReader, to common.Address, sig string) (common.Address, error) {
	ret, err := chain.CallContract(ctx, ethereum.CallMsg{To: &to, Data: selector(sig)}, nil)
	if err != nil {
		return common.Address{}, err
	}
	if len(ret) != 32 {
		return common.Address{}, fmt.Errorf("%s returned %d bytes", sig, len(ret))
	}
	return common.BytesToAddress(ret[12:]), nil
}

// OracleCoverage returns the predicate for Tokens.WithOracle: whether the
// oracle has a positive answer for a token at the latest block.
func OracleCoverage(ctx context.Context, caller ethereum.ContractCaller, oracle common.Address) func(common.Address) bool {
	return func(t common.Address) bool {
		answer, _, err := readOracleRound(ctx, caller, oracle, t, nil)
		return err == nil && answer.Sign() > 0
	}
}

// readOracleRound reads latestRoundData(token) at block: the answer (signed)
// and its update time.
func readOracleRound(ctx context.Context, chain ethereum.ContractCaller, oracle, token common.Address, block *big.Int) (answer, updatedAt *big.Int, err error) {
	if oracle == (common.Address{}) {
		return nil, nil, fmt.Errorf("no oracle configured")
	}
	ret, err := chain.CallContract(ctx, ethereum.CallMsg{To: &oracle, Data: append(selector("latestRoundData(address)"), word(token)...)}, block)
	if err != nil {
		return nil, nil, nodeErr("oracle read", err)
	}
	if len(ret) != 5*32 {
		return nil, nil, fmt.Errorf("latestRoundData returned %d bytes", len(ret))
	}
	answer = new(big.Int).SetBytes(ret[32:64])
	if ret[32]&0x80 != 0 {
		answer.Sub(answer, new(big.Int).Lsh(big.NewInt(1), 256))
	}
	return answer, new(big.Int).SetBytes(ret[96:128]), nil
}

// Follow calls Advance every interval until ctx ends, reporting errors to
// onError (which may be nil). Each call applies the Sync events of the
// blocks mined since the last one.
func (v *VenueCache) Follow(ctx context.Context, interval time.Duration, onError func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := v.Advance(ctx); err != nil && onError != nil && ctx.Err() == nil {
				onError(err)
			}
		}
	}
}
