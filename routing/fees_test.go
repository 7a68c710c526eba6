package routing

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
)

type mapBindings map[common.Address]common.Address

func (m mapBindings) BoundReferrer(_ context.Context, w common.Address) (common.Address, bool, error) {
	r, ok := m[w]
	return r, ok, nil
}

func testPolicy(t *testing.T, bindings ReferralBindings) (*FeePolicy, *Tokens) {
	t.Helper()
	tokens, err := NewTokens([]config.TokenConfig{
		{Address: tokenAddr(0).Hex(), Symbol: "WETH", Name: "Wrapped Ether", Decimals: 18, Class: config.ClassMajor},
		{Address: tokenAddr(1).Hex(), Symbol: "USDC", Name: "USD Coin", Decimals: 6, Class: config.ClassStable},
		{Address: tokenAddr(2).Hex(), Symbol: "USDT", Name: "Tether USD", Decimals: 6, Class: config.ClassStable},
		{Address: tokenAddr(3).Hex(), Symbol: "PEPE", Name: "Pepe", Decimals: 18},
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewFeePolicy(config.Default().Routing.FeePolicy, common.HexToAddress("0xfee0000000000000000000000000000000000001"), tokens, bindings)
	if err != nil {
		t.Fatal(err)
	}
	return p, tokens
}

func TestFeeLegsShapeAndCells(t *testing.T) {
	p, _ := testPolicy(t, nil)
	table := config.Default().Routing.FeePolicy
	legs, err := p.FeeLegs(context.Background(), common.Address{}, common.Address{}, "limit", tokenAddr(1), tokenAddr(0))
	if err != nil {
		t.Fatal(err)
	}
	if legs.Cell != (FeeCellRef{OrderKind: "limit", TokenClass: config.ClassMajor}) ||
		legs.Fees.Triggered != table["limit"]["major"] || legs.Fees.Direct != table["direct"]["major"] {
		t.Fatalf("stable/major pair must price the major cells: %+v", legs)
	}
	if legs.Referrer != p.Vault().Hex() || legs.Vault != p.Vault().Hex() {
		t.Fatalf("no referrer, no wallet: payout must be the vault, got %s", legs.Referrer)
	}
	raw, _ := json.Marshal(legs)
	var shape map[string]any
	_ = json.Unmarshal(raw, &shape)
	fees := shape["fees"].(map[string]any)
	trig := fees["triggered"].(map[string]any)
	for _, k := range []string{"protocolPpm", "referralPpm", "keeperPpm"} {
		if _, ok := trig[k]; !ok {
			t.Fatalf("feeLegs JSON lacks fees.triggered.%s: %s", k, raw)
		}
	}
	if shape["cell"].(map[string]any)["orderKind"] != "limit" || fees["direct"] == nil {
		t.Fatalf("feeLegs JSON shape: %s", raw)
	}
	// Omitted orderType serves the direct cell; stable/stable is stable.
	legs, _ = p.FeeLegs(context.Background(), common.Address{}, common.Address{}, "", tokenAddr(1), tokenAddr(2))
	if legs.Cell.OrderKind != "direct" || legs.Cell.TokenClass != "stable" || legs.Fees.Triggered != table["direct"]["stable"] {
		t.Fatalf("direct cell: %+v", legs)
	}
	// Unknown tokens are "other".
	legs, _ = p.FeeLegs(context.Background(), common.Address{}, common.Address{}, "dca", tokenAddr(1), tokenAddr(9))
	if legs.Cell.TokenClass != "other" {
		t.Fatalf("unknown token class %s", legs.Cell.TokenClass)
	}
	if _, err := p.FeeLegs(context.Background(), common.Address{}, common.Address{}, "swap", tokenAddr(1), tokenAddr(2)); codeOf(err) != oe.CodeInvalidRequest {
		t.Fatalf("unknown orderType: %v", err)
	}
}

func TestFeeLegsReferrerResolution(t *testing.T) {
	wallet, bound, param := tokenAddr(100), tokenAddr(200), tokenAddr(300)
	p, _ := testPolicy(t, mapBindings{wallet: bound})
	ctx := context.Background()
	legs, _ := p.FeeLegs(ctx, wallet, common.Address{}, "limit", tokenAddr(0), tokenAddr(1))
	if legs.Referrer != bound.Hex() || !legs.ReferrerBound || legs.RequestedReferrer != nil {
		t.Fatalf("bound wallet: referrer %s bound %v requested %v, want %s bound, none requested", legs.Referrer, legs.ReferrerBound, legs.RequestedReferrer, bound.Hex())
	}
	// A bound wallet keeps its binding whatever referrer is asked for;
	// the request is echoed.
	legs, _ = p.FeeLegs(ctx, wallet, param, "limit", tokenAddr(0), tokenAddr(1))
	if legs.Referrer != bound.Hex() || !legs.ReferrerBound || legs.RequestedReferrer == nil || *legs.RequestedReferrer != param.Hex() {
		t.Fatalf("bound wallet with referrer=%s: referrer %s bound %v requested %v", param.Hex(), legs.Referrer, legs.ReferrerBound, legs.RequestedReferrer)
	}
	// The submit check accepts exactly the served legs.
	if _, err := p.CheckOrderFees(ctx, OrderFees{OrderKind: "limit", Maker: wallet, TokenIn: tokenAddr(0), TokenOut: tokenAddr(1),
		Referrer: common.HexToAddress(legs.Referrer), ReferralFeePpm: legs.Fees.Triggered.ReferralPpm}); err != nil {
		t.Fatalf("the served legs of a bound wallet are refused: %v", err)
	}
	legs, _ = p.FeeLegs(ctx, tokenAddr(101), param, "limit", tokenAddr(0), tokenAddr(1))
	if legs.Referrer != param.Hex() || legs.ReferrerBound || legs.RequestedReferrer == nil {
		t.Fatalf("unbound wallet with a referrer parameter: %s bound %v", legs.Referrer, legs.ReferrerBound)
	}
	legs, _ = p.FeeLegs(ctx, tokenAddr(101), common.Address{}, "limit", tokenAddr(0), tokenAddr(1))
	if legs.Referrer != p.Vault().Hex() || legs.ReferrerBound {
		t.Fatalf("unbound wallet: %s", legs.Referrer)
	}
}

func TestCheckOrderFees(t *testing.T) {
	wallet, bound := tokenAddr(100), tokenAddr(200)
	p, _ := testPolicy(t, mapBindings{wallet: bound})
	ctx := context.Background()
	table := config.Default().Routing.FeePolicy
	good := OrderFees{OrderKind: "stop_loss", Maker: wallet, TokenIn: tokenAddr(0), TokenOut: tokenAddr(1),
		Referrer: bound, ReferralFeePpm: table["stop_loss"]["major"].ReferralPpm}
	if bind, err := p.CheckOrderFees(ctx, good); err != nil || bind {
		t.Fatalf("bound wallet, matching fields: bind %v err %v", bind, err)
	}
	direct := good
	direct.ReferralFeePpm = table["direct"]["major"].ReferralPpm
	if _, err := p.CheckOrderFees(ctx, direct); codeOf(err) != oe.CodeFeeParamsMismatch {
		t.Fatalf("order signed from a direct route: %v", err)
	}
	other := good
	other.Referrer = tokenAddr(300)
	if _, err := p.CheckOrderFees(ctx, other); codeOf(err) != oe.CodeFeeParamsMismatch {
		t.Fatalf("bound wallet with another referrer: %v", err)
	}
	fresh := good
	fresh.Maker, fresh.Referrer = tokenAddr(101), tokenAddr(300)
	if bind, err := p.CheckOrderFees(ctx, fresh); err != nil || !bind {
		t.Fatalf("unbound wallet naming a referrer must bind: %v %v", bind, err)
	}
	fresh.Referrer = p.Vault()
	if bind, err := p.CheckOrderFees(ctx, fresh); err != nil || bind {
		t.Fatalf("vault referrer must not bind: %v %v", bind, err)
	}
	fresh.Referrer = common.Address{}
	if _, err := p.CheckOrderFees(ctx, fresh); codeOf(err) != oe.CodeFeeParamsMismatch {
		t.Fatalf("zero referrer: %v", err)
	}
}

func TestFeeAmountsAndMinOut(t *testing.T) {
	a := Amounts(uint256.NewInt(1_000_003), config.FeeCell{ProtocolPpm: 300, ReferralPpm: 150, KeeperPpm: 200})
	if a.Protocol.Uint64() != 300 || a.Referral.Uint64() != 150 || a.Keeper.Uint64() != 200 || a.Net.Uint64() != 1_000_003-650 {
		t.Fatalf("legs %v %v %v net %v", a.Protocol, a.Referral, a.Keeper, a.Net)
	}
	if m := MinAmountOut(uint256.NewInt(1_000_000), 5_000); m.Uint64() != 995_000 {
		t.Fatalf("min out %d", m.Uint64())
	}
}

func TestTokensSearchAndResolve(t *testing.T) {
	_, tokens := testPolicy(t, nil)
	hits := tokens.Search("us", nil)
	if len(hits) != 2 || hits[0].Symbol != "USDC" || hits[1].Symbol != "USDT" {
		t.Fatalf("search us: %+v", hits)
	}
	if hits := tokens.Search("ether", nil); len(hits) != 2 { // Wrapped Ether, Tether USD
		t.Fatalf("name search: %d hits", len(hits))
	}
	if a, ok := tokens.Resolve("weth"); !ok || a != tokenAddr(0) {
		t.Fatal("resolve by symbol")
	}
	if _, err := NewTokens([]config.TokenConfig{{Address: "0x12", Symbol: "BAD"}}); err == nil {
		t.Fatal("malformed address accepted")
	}
}
