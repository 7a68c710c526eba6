package devchain

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"log/slog"
	"math/big"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/contracts"
)

// deployParams are the contracts.Deploy parameters of a chain section and a
// fee policy: the policy's protocol and keeper legs as the router's fee
// table, the token classes, the oracle's staleness bound.
func deployParams(cfg config.ChainConfig, policy map[string]map[string]config.FeeCell, feeVault common.Address) (contracts.Params, error) {
	if err := config.ValidateFeePolicy(policy); err != nil {
		return contracts.Params{}, err
	}
	p := contracts.Params{FeeVault: feeVault, OracleMaxAge: uint64(cfg.OracleMaxAge / time.Second)}
	for k, kind := range config.OrderKinds() {
		for c, class := range config.TokenClasses() {
			cell := policy[kind][class]
			p.Fees = append(p.Fees, contracts.FeeCell{
				Kind: uint8(k), Class: uint8(c), ProtocolPpm: cell.ProtocolPpm, KeeperPpm: cell.KeeperPpm,
			})
		}
	}
	return p, nil
}

// className is the fee class name of a router token class.
func className(class uint8) string {
	classes := config.TokenClasses()
	if int(class) < len(classes) {
		return classes[class]
	}
	return config.ClassOther
}

// fromContracts converts contracts.Deploy's result.
func fromContracts(chainID uint64, c *contracts.Deployment) *Deployment {
	d := &Deployment{
		ChainID: chainID, Block: c.Block, Router: c.Router, Executor: c.Executor, Oracle: c.Oracle,
		FeeVault: c.FeeVault, Multicall: c.Multicall,
	}
	for _, t := range c.Tokens {
		d.Tokens = append(d.Tokens, Token{
			Symbol: t.Symbol, Name: t.Name, Address: t.Address, Decimals: t.Decimals, Class: className(t.Class),
			WrappedNative: t.Address == c.WrappedNative, PriceUSD: new(big.Int).Set(t.PriceUSD),
		})
	}
	for _, p := range c.Pools {
		d.Pools = append(d.Pools, Pool{
			Address: p.Address, Family: p.Family, Token0: p.Token0, Token1: p.Token1, FeePpm: uint32(p.FeePpm),
		})
	}
	return d
}

// deployDev deploys the contract set on the dev chain, mining with mine.
func deployDev(ctx context.Context, client Client, key *ecdsa.PrivateKey, cfg config.ChainConfig,
	policy map[string]map[string]config.FeeCell, feeVault common.Address, mine func()) (*Deployment, error) {
	params, err := deployParams(cfg, policy, feeVault)
	if err != nil {
		return nil, err
	}
	params.Mine = mine
	auth := bind.NewKeyedTransactor(key, new(big.Int).SetUint64(cfg.ChainID))
	c, err := contracts.Deploy(ctx, client, auth, params)
	if err != nil {
		return nil, fmt.Errorf("devchain: deploy: %w", err)
	}
	return fromContracts(cfg.ChainID, c), nil
}

// RemoteOptions configures DeployRemote.
type RemoteOptions struct {
	// ChainID the node must have. Zero means 4663.
	ChainID uint64
	// FeePolicy is written to the router's fee table. Nil means the
	// shipped default policy.
	FeePolicy map[string]map[string]config.FeeCell
	// FeeVault receives the protocol fee leg. Zero means the deployer.
	FeeVault common.Address
	// OracleMaxAge is the oracle's staleness bound. Zero means 1 h.
	OracleMaxAge time.Duration
	// LiquidityDivisor divides the seeded liquidity (3,000 native coins are
	// wrapped at 1); zero means 1.
	LiquidityDivisor int64
	// PollInterval is the receipt polling period. Zero means 250 ms.
	PollInterval time.Duration
}

// DeployRemote deploys the same contracts as the dev chain, with liquidity
// and oracle prices, to the node at rpcURL from the account of key, after
// checking the node's chain id. The node mines by itself (geth --dev, a
// test network); the deployer needs the native coin for gas and for the
// wrapped liquidity.
func DeployRemote(ctx context.Context, rpcURL string, key *ecdsa.PrivateKey, opts RemoteOptions, logger *slog.Logger) (*Deployment, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if opts.ChainID == 0 {
		opts.ChainID = DefaultChainID
	}
	if opts.FeePolicy == nil {
		opts.FeePolicy = config.Default().Routing.FeePolicy
	}
	if opts.OracleMaxAge <= 0 {
		opts.OracleMaxAge = DefaultOracleMaxAge
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = 250 * time.Millisecond
	}
	client, err := Dial(ctx, rpcURL, opts.ChainID)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	params, err := deployParams(config.ChainConfig{OracleMaxAge: opts.OracleMaxAge}, opts.FeePolicy, opts.FeeVault)
	if err != nil {
		return nil, err
	}
	params.LiquidityDivisor = opts.LiquidityDivisor
	params.PollInterval = opts.PollInterval
	deployer := crypto.PubkeyToAddress(key.PublicKey)
	logger.Info("deploying contracts", "component", "devchain", "rpc", RedactURL(rpcURL), "chainId", opts.ChainID, "deployer", deployer)
	c, err := contracts.Deploy(ctx, client, bind.NewKeyedTransactor(key, new(big.Int).SetUint64(opts.ChainID)), params)
	if err != nil {
		return nil, fmt.Errorf("devchain: deploy to %s: %w", RedactURL(rpcURL), scrubURL(err, rpcURL))
	}
	d := fromContracts(opts.ChainID, c)
	logger.Info("contracts deployed", "component", "devchain", "router", d.Router, "block", d.Block)
	return d, nil
}
