package config

import (
	"errors"
	"fmt"
)

// Order kinds of the fee policy (contract.md section 8). KindDirect is the
// router's direct swap path; the others are the signed order classes.
const (
	KindDirect     = "direct"
	KindLimit      = "limit"
	KindStopLoss   = "stop_loss"
	KindTakeProfit = "take_profit"
	KindDCA        = "dca"
	KindTrailing   = "trailing"
)

// Token classes of the fee policy, from the safest to the riskiest. A pair
// takes the riskier class of its two tokens; an unknown token is "other",
// as on the router.
const (
	ClassStable = "stable"
	ClassMajor  = "major"
	ClassOther  = "other"
)

// OrderKinds lists every fee-policy order kind in the router's numbering
// (0 direct, 1 limit, 2 stop_loss, 3 take_profit, 4 dca, 5 trailing).
func OrderKinds() []string {
	return []string{KindDirect, KindLimit, KindStopLoss, KindTakeProfit, KindDCA, KindTrailing}
}

// TokenClasses lists every token class in the router's numbering
// (0 stable, 1 major, 2 other).
func TokenClasses() []string { return []string{ClassStable, ClassMajor, ClassOther} }

// The router's bounds on a fee cell (ServiceRouter MAX_CELL_PPM and
// MAX_REFERRAL_PPM): protocol + keeper and the referral leg each at most
// 10 %.
const (
	MaxCellPpm     = 100_000
	MaxReferralPpm = 100_000
)

// FeeCell is one cell of the fee policy: the legs taken from the gross
// output of a fill, each in parts per million.
type FeeCell struct {
	ProtocolPpm uint32 `json:"protocolPpm"`
	ReferralPpm uint32 `json:"referralPpm"`
	KeeperPpm   uint32 `json:"keeperPpm"`
}

// TokenConfig is one entry of the static token registry. The dev chain adds
// the tokens it deploys; configuration names the tokens of a real network.
type TokenConfig struct {
	// Address is the ERC-20 address (0x-hex). Empty for a dev-chain token
	// that is matched by Symbol once the chain has deployed it.
	Address  string `json:"address"`
	Symbol   string `json:"symbol"`
	Name     string `json:"name"`
	Decimals uint8  `json:"decimals"`
	// Class is stable, major or other. Empty means other.
	Class string `json:"class"`
}

// RoutingConfig configures route search, the token registry and classes,
// and the fee policy. Token references (Connectors, NativeToken) are symbols
// of the registry or 0x addresses.
type RoutingConfig struct {
	// Connectors are the intermediate tokens multi-hop routes may pass
	// through. Default WETH, USDC, USDT, DAI.
	Connectors []string `json:"connectors"`
	// MaxHops bounds the pools on one path. Default 3 (at most two
	// connectors).
	MaxHops int `json:"maxHops"`
	// SplitStepPpm is the share of amountIn the splitter moves at a time.
	// Default 50,000 (5 %).
	SplitStepPpm uint32 `json:"splitStepPpm"`
	// MaxSplitPaths bounds the pool-disjoint paths one route may split
	// across. Default 4.
	MaxSplitPaths int `json:"maxSplitPaths"`
	// NativeToken is the wrapped native coin gas is paid in (converted to
	// tokenOut through mid prices). Default WETH.
	NativeToken string `json:"nativeToken"`
	// GasPriceWei is the gas price assumed for gas-aware routing.
	// Default 1 gwei.
	GasPriceWei uint64 `json:"gasPriceWei"`
	// GasBase is the gas of a route before its first hop (router, executor,
	// fee legs). Default 120,000.
	GasBase uint64 `json:"gasBase"`
	// GasPerHop is the gas of one approve + swap leg per venue family.
	// Families not listed use GasPerHopDefault. Default cpmm 90,000,
	// stableswap 140,000.
	GasPerHop        map[string]uint64 `json:"gasPerHop"`
	GasPerHopDefault uint64            `json:"gasPerHopDefault"`
	// ImpactSuggestPpm is the price impact above which a route carries split
	// suggestions (venue split and sequential chunks). Default 10,000 (1 %).
	ImpactSuggestPpm uint32 `json:"impactSuggestPpm"`
	// DefaultSlippagePpm is used when a route request names none.
	// Default 5,000 (0.5 %).
	DefaultSlippagePpm uint32 `json:"defaultSlippagePpm"`
	// VerifyTop is how many candidates the route call simulates with
	// eth_call. Default 3.
	VerifyTop int `json:"verifyTop"`
	// Tokens is the static token registry. Default: the dev chain's tokens
	// by symbol (addresses filled when the chain deploys them).
	Tokens []TokenConfig `json:"tokens"`
	// FeePolicy maps order kind → token class → fee cell. Validate rejects a
	// policy with a missing cell, a cell over the router's limits, a direct
	// cell with a keeper leg, or a direct cell whose referralPpm equals an
	// order cell's in the same class.
	// The fee vault is ChainConfig.FeeVault.
	FeePolicy map[string]map[string]FeeCell `json:"feePolicy"`
}

func defaultRouting() RoutingConfig {
	return RoutingConfig{
		Connectors:         []string{"WETH", "USDC", "USDT", "DAI"},
		MaxHops:            3,
		SplitStepPpm:       50_000,
		MaxSplitPaths:      4,
		NativeToken:        "WETH",
		GasPriceWei:        1_000_000_000,
		GasBase:            120_000,
		GasPerHop:          map[string]uint64{"cpmm": 90_000, "stableswap": 140_000},
		GasPerHopDefault:   120_000,
		ImpactSuggestPpm:   10_000,
		DefaultSlippagePpm: 5_000,
		VerifyTop:          3,
		Tokens: []TokenConfig{
			{Symbol: "WETH", Name: "Wrapped Ether", Decimals: 18, Class: ClassMajor},
			{Symbol: "WBTC", Name: "Wrapped Bitcoin", Decimals: 8, Class: ClassMajor},
			{Symbol: "USDC", Name: "USD Coin", Decimals: 6, Class: ClassStable},
			{Symbol: "USDT", Name: "Tether USD", Decimals: 6, Class: ClassStable},
			{Symbol: "DAI", Name: "Dai Stablecoin", Decimals: 18, Class: ClassStable},
		},
		FeePolicy: defaultFeePolicy(),
	}
}

// defaultFeePolicy is the shipped fee table. Direct swaps pay no keeper;
// triggered kinds pay the keeper that executes them. In every class the
// direct cell's referralPpm differs from every order cell's, so an order
// signed with a direct-swap route's fee legs is always rejected.
func defaultFeePolicy() map[string]map[string]FeeCell {
	cells := func(protocol, referral, keeper uint32) map[string]FeeCell {
		return map[string]FeeCell{
			ClassStable: {ProtocolPpm: protocol, ReferralPpm: referral, KeeperPpm: keeper},
			ClassMajor:  {ProtocolPpm: 2 * protocol, ReferralPpm: 2 * referral, KeeperPpm: keeper},
			ClassOther:  {ProtocolPpm: 4 * protocol, ReferralPpm: 4 * referral, KeeperPpm: 2 * keeper},
		}
	}
	return map[string]map[string]FeeCell{
		KindDirect:     cells(100, 50, 0),
		KindLimit:      cells(200, 100, 100),
		KindStopLoss:   cells(300, 150, 200),
		KindTakeProfit: cells(300, 150, 200),
		KindDCA:        cells(200, 120, 150),
		KindTrailing:   cells(300, 160, 250),
	}
}

// Validate checks the routing configuration at start-up: search bounds, the
// token registry's classes, and the fee policy (see ValidateFeePolicy).
func (c RoutingConfig) Validate() error {
	var errs []error
	if c.MaxHops < 1 || c.MaxHops > 3 {
		errs = append(errs, fmt.Errorf("routing: maxHops %d outside 1..3", c.MaxHops))
	}
	if c.SplitStepPpm == 0 || c.SplitStepPpm > 1_000_000 || 1_000_000%c.SplitStepPpm != 0 {
		errs = append(errs, fmt.Errorf("routing: splitStepPpm %d must divide 1,000,000", c.SplitStepPpm))
	}
	if c.MaxSplitPaths < 1 {
		errs = append(errs, fmt.Errorf("routing: maxSplitPaths %d below 1", c.MaxSplitPaths))
	}
	if c.VerifyTop < 0 {
		errs = append(errs, fmt.Errorf("routing: verifyTop %d below 0", c.VerifyTop))
	}
	if c.DefaultSlippagePpm > 1_000_000 {
		errs = append(errs, fmt.Errorf("routing: defaultSlippagePpm %d above 1,000,000", c.DefaultSlippagePpm))
	}
	if c.ImpactSuggestPpm > 1_000_000 {
		errs = append(errs, fmt.Errorf("routing: impactSuggestPpm %d above 1,000,000", c.ImpactSuggestPpm))
	}
	for _, t := range c.Tokens {
		if !validClass(t.Class) && t.Class != "" {
			errs = append(errs, fmt.Errorf("routing: token %s has unknown class %q", t.Symbol, t.Class))
		}
	}
	errs = append(errs, ValidateFeePolicy(c.FeePolicy))
	return errors.Join(errs...)
}

// ValidateFeePolicy checks a fee table: every order kind × token class has a
// cell, no unknown kind or class appears, every cell is within the router's
// limits (MaxCellPpm, MaxReferralPpm), direct cells have no keeper leg, and
// in each class the direct cell's referralPpm differs from every order
// cell's.
func ValidateFeePolicy(policy map[string]map[string]FeeCell) error {
	for kind, row := range policy {
		if !validKind(kind) {
			return fmt.Errorf("routing: fee policy has unknown order kind %q", kind)
		}
		for class := range row {
			if !validClass(class) {
				return fmt.Errorf("routing: fee policy %s has unknown token class %q", kind, class)
			}
		}
	}
	for _, kind := range OrderKinds() {
		for _, class := range TokenClasses() {
			cell, ok := policy[kind][class]
			if !ok {
				return fmt.Errorf("routing: fee policy lacks cell %s × %s", kind, class)
			}
			if uint64(cell.ProtocolPpm)+uint64(cell.KeeperPpm) > MaxCellPpm || cell.ReferralPpm > MaxReferralPpm {
				return fmt.Errorf("routing: fee cell %s × %s exceeds the router's limits (protocol + keeper ≤ %d ppm, referral ≤ %d ppm)",
					kind, class, MaxCellPpm, MaxReferralPpm)
			}
			if kind == KindDirect {
				if cell.KeeperPpm != 0 {
					return fmt.Errorf("routing: fee cell direct × %s has keeperPpm %d; the router pays no keeper on direct swaps", class, cell.KeeperPpm)
				}
				continue
			}
			if cell.ReferralPpm == policy[KindDirect][class].ReferralPpm {
				return fmt.Errorf("routing: fee cell %s × %s has the direct cell's referralPpm %d; "+
					"an order signed from a direct-swap route could not be told apart", kind, class, cell.ReferralPpm)
			}
		}
	}
	return nil
}

func validKind(kind string) bool {
	for _, k := range OrderKinds() {
		if k == kind {
			return true
		}
	}
	return false
}

func validClass(class string) bool {
	for _, c := range TokenClasses() {
		if c == class {
			return true
		}
	}
	return false
}
