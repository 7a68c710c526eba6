package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// ChainConfig says which chain the engine follows and where its contracts
// live. With an empty RPCURL (and Dev on) the engine starts the embedded dev
// chain and fills the addresses, pools and token addresses itself; with an RPCURL they
// come from this section, typically pasted from `orderengine devnet deploy`
// (which also prints the token addresses of RoutingConfig.Tokens).
type ChainConfig struct {
	// RPCURL of an external node. Empty starts the embedded dev chain.
	RPCURL string `json:"rpcURL"`
	// PublicRPCURL is the RPC URL served to clients by GET /v1/config.
	// Empty serves null (RPCURL is never published: it may carry a provider
	// key); in dev mode the engine sets it to the dev chain's JSON-RPC URL.
	PublicRPCURL string `json:"publicRPCURL"`
	// ChainID is the expected chain id, checked against the node at start,
	// and the chain id of the embedded dev chain. Default 4663; zero means
	// 4663.
	ChainID uint64 `json:"chainId"`
	// Confirmations is the indexer's confirmation depth. Default 0.
	Confirmations uint64 `json:"confirmations"`

	// BlockInterval is the dev chain's mining period. Default 1 s; zero
	// means 1 s.
	BlockInterval time.Duration `json:"blockInterval"`
	// ManualMining turns the dev chain's mining timer (and the market
	// maker's timer) off: blocks are sealed only when the owner calls
	// Commit. Tests use it. Default false.
	ManualMining bool `json:"manualMining"`
	// DevRPCListen is where the dev chain serves JSON-RPC. Default
	// 127.0.0.1:8545; empty disables it; port 0 picks a free port.
	DevRPCListen string `json:"devRPCListen"`
	// DevPersist keeps the embedded dev chain in <dataDir>/devchain, so
	// that a restart continues it (orders, balances and fills survive);
	// false keeps it in memory, a new chain at every start (the previous
	// run's chain-bound records are then cleared at start). Default true.
	DevPersist bool `json:"devPersist"`
	// DevAccounts is the number of prefunded dev maker accounts, derived
	// from a fixed public seed (dev only). Default 5; zero means 5.
	DevAccounts int `json:"devAccounts"`
	// MarketMaker configures the dev chain's market maker.
	MarketMaker MarketMakerConfig `json:"marketMaker"`
	// OracleMaxAge is the oracle staleness bound written to the oracle when
	// the dev chain or `devnet deploy` deploys it. Default 1 h; zero means
	// 1 h.
	OracleMaxAge time.Duration `json:"oracleMaxAge"`
	// DeployerKeyFile is the file holding the hex private key that
	// `orderengine devnet deploy` deploys with (the --key-file flag
	// overrides it). Unused by serve. Default empty.
	DeployerKeyFile string `json:"deployerKeyFile"`

	// Router, Executor, Oracle, FeeVault and Multicall are contract
	// addresses (0x-hex). The dev chain fills them at start; with an
	// external node they are required (Router, Oracle, FeeVault) or
	// optional (Executor, Multicall).
	Router    string `json:"router"`
	Executor  string `json:"executor,omitempty"`
	Oracle    string `json:"oracle"`
	FeeVault  string `json:"feeVault"`
	Multicall string `json:"multicall,omitempty"`
	// DeployBlock is the block the contracts were deployed in; the indexer
	// starts there. Default 0.
	DeployBlock uint64 `json:"deployBlock"`
	// Pools is the venue list routing searches. The dev chain fills it at
	// start.
	Pools []PoolConfig `json:"pools,omitempty"`
}

// PoolConfig is one venue: a two-token pool of a family.
type PoolConfig struct {
	// Address is the pool contract (0x-hex).
	Address string `json:"address"`
	// Family is the venue family: "cpmm" or "stableswap".
	Family string `json:"family"`
	// Token0 and Token1 are the pool's tokens (0x-hex), in the pool's order.
	Token0 string `json:"token0"`
	Token1 string `json:"token1"`
	// FeePpm is a cpmm pool's fee in ppm (3000 or 500); zero for stableswap.
	FeePpm uint32 `json:"feePpm,omitempty"`
}

// MarketMakerConfig configures the dev chain's market maker: a dev account
// that moves each volatile token's price by a bounded random walk, swapping
// through the pools so their prices follow, and writes the pools' prices to
// the oracle.
type MarketMakerConfig struct {
	// Enabled runs the market maker on the dev chain. Default true.
	Enabled bool `json:"enabled"`
	// Period between two steps. Default 5 s; zero means 5 s.
	Period time.Duration `json:"period"`
	// MaxStepPpm bounds one step's price move, in ppm of the price.
	// Default 5000 (0.5 %); zero means 5000.
	MaxStepPpm uint32 `json:"maxStepPpm"`
	// MaxDeviationPpm bounds the walk around the seeded price, in ppm.
	// Default 100000 (10 %); zero means 100000.
	MaxDeviationPpm uint32 `json:"maxDeviationPpm"`
	// Seed seeds the walk's random number generator, so a run is
	// reproducible. Default 1; zero means 1.
	Seed int64 `json:"seed"`
}

// Validate reports a chain section that cannot work: the contract addresses
// an external node needs, and walk bounds that do not fit.
func (c ChainConfig) Validate(dev bool) error {
	var errs []error
	if c.RPCURL == "" && !dev {
		errs = append(errs, errors.New("config: chain.rpcURL is required outside dev mode"))
	}
	if c.RPCURL != "" {
		required := [...]struct{ name, value string }{
			{"router", c.Router}, {"oracle", c.Oracle}, {"feeVault", c.FeeVault},
		}
		for _, r := range required {
			if r.value == "" {
				errs = append(errs, fmt.Errorf("config: chain.%s is required with chain.rpcURL (run `orderengine devnet deploy`)", r.name))
			}
		}
	}
	if c.RPCURL != "" && !rpcURLShape(c.RPCURL) {
		// The value is not quoted: it may carry a provider key.
		errs = append(errs, errors.New("config: chain.rpcURL must be an http://, https://, ws:// or wss:// URL with a host, or the absolute path of an IPC socket"))
	}
	if c.PublicRPCURL != "" && (!rpcURLShape(c.PublicRPCURL) || strings.HasPrefix(c.PublicRPCURL, "/")) {
		errs = append(errs, fmt.Errorf("config: chain.publicRPCURL must be an http(s):// or ws(s):// URL with a host, got %q", c.PublicRPCURL))
	}
	if c.DevRPCListen != "" {
		if err := checkHostPort(c.DevRPCListen); err != nil {
			errs = append(errs, fmt.Errorf("config: chain.devRPCListen: %w", err))
		}
	}
	for _, a := range [...]struct{ name, value string }{
		{"router", c.Router}, {"executor", c.Executor}, {"oracle", c.Oracle}, {"feeVault", c.FeeVault}, {"multicall", c.Multicall},
	} {
		if a.value != "" && !hexAddress(a.value) {
			errs = append(errs, fmt.Errorf("config: chain.%s must be a 0x-prefixed 20-byte hex address, got %q", a.name, a.value))
		}
	}
	if c.DevAccounts < 0 || c.DevAccounts > 100 {
		errs = append(errs, fmt.Errorf("config: chain.devAccounts %d out of range 0..100", c.DevAccounts))
	}
	mm := c.MarketMaker
	if mm.MaxStepPpm >= 1_000_000 {
		errs = append(errs, fmt.Errorf("config: chain.marketMaker.maxStepPpm must be below 1000000, got %d", mm.MaxStepPpm))
	}
	if mm.MaxDeviationPpm >= 1_000_000 {
		errs = append(errs, fmt.Errorf("config: chain.marketMaker.maxDeviationPpm must be below 1000000, got %d", mm.MaxDeviationPpm))
	}
	errs = append(errs, notNegative(namedDuration{"chain.blockInterval", c.BlockInterval}, namedDuration{"chain.marketMaker.period", mm.Period},
		namedDuration{"chain.oracleMaxAge", c.OracleMaxAge}))
	return errors.Join(errs...)
}

// rpcURLShape reports whether s is a node URL go-ethereum can dial: http,
// https, ws or wss with a host, or an absolute IPC path.
func rpcURLShape(s string) bool {
	if strings.HasPrefix(s, "/") {
		return true
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return false
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss":
		return true
	}
	return false
}

// hexAddress reports whether s is 0x and 40 hex digits.
func hexAddress(s string) bool {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok {
		h, ok = strings.CutPrefix(s, "0X")
	}
	if !ok || len(h) != 40 {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func defaultChain() ChainConfig {
	return ChainConfig{
		ChainID:       4663,
		BlockInterval: time.Second,
		DevRPCListen:  "127.0.0.1:8545",
		DevPersist:    true,
		DevAccounts:   5,
		OracleMaxAge:  time.Hour,
		MarketMaker: MarketMakerConfig{
			Enabled:         true,
			Period:          5 * time.Second,
			MaxStepPpm:      5000,
			MaxDeviationPpm: 100_000,
			Seed:            1,
		},
	}
}
