package orders_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// feeLegs calls GET /v1/route for wallet (orderType and referrer omitted
// when empty) and returns feeLegs.referrer and fees.triggered.referralPpm.
func (ce *chainEnv) feeLegs(wallet common.Address, orderType, referrer string) (common.Address, uint32) {
	ce.t.Helper()
	legs := ce.routeLegs(wallet, orderType, referrer)
	return common.HexToAddress(legs.Referrer), legs.Fees.Triggered.ReferralPpm
}

// servedLegs is the part of feeLegs the tests read.
type servedLegs struct {
	Referrer          string  `json:"referrer"`
	ReferrerBound     *bool   `json:"referrerBound"`
	RequestedReferrer *string `json:"requestedReferrer"`
	Fees              struct {
		Triggered struct {
			ReferralPpm uint32 `json:"referralPpm"`
		} `json:"triggered"`
	} `json:"fees"`
}

// routeLegs calls GET /v1/route for wallet and returns its feeLegs.
func (ce *chainEnv) routeLegs(wallet common.Address, orderType, referrer string) servedLegs {
	ce.t.Helper()
	path := "/v1/route?tokenIn=" + ce.weth.Address.Hex() + "&tokenOut=" + ce.usdc.Address.Hex() +
		"&amountIn=1000000000000000000&wallet=" + wallet.Hex()
	if orderType != "" {
		path += "&orderType=" + orderType
	}
	if referrer != "" {
		path += "&referrer=" + referrer
	}
	r := ce.srv.Get(path)
	if r.Status != 200 {
		ce.t.Fatalf("route: %d %s", r.Status, r.Body)
	}
	var route struct {
		FeeLegs servedLegs `json:"feeLegs"`
	}
	if err := json.Unmarshal(r.Body, &route); err != nil {
		ce.t.Fatal(err)
	}
	if route.FeeLegs.ReferrerBound == nil {
		ce.t.Fatalf("feeLegs without referrerBound: %s", r.Body)
	}
	return route.FeeLegs
}

// TestSubmitFeeFieldsFromRoute is specification section 4, submit rule 1:
// the fee fields must be the feeLegs GET /v1/route serves for the same
// wallet and orderType. Orders signed with them are accepted for every
// class; the direct-swap cell (orderType omitted) and another class's cell
// are FEE_PARAMS_MISMATCH; a referrer passed to the route binds the wallet,
// and the route then serves the binding.
func TestSubmitFeeFieldsFromRoute(t *testing.T) {
	ce := newChainEnv(t)
	signed := func(class string, ref common.Address, ppm uint32) spec {
		sp := ce.spec(class, newKey(t))
		sp.referrer, sp.ppm = ref, &ppm
		return sp
	}
	for _, class := range []string{"limit", "stop_loss", "take_profit", "dca", "trailing"} {
		t.Run(class, func(t *testing.T) {
			sp := ce.spec(class, newKey(t))
			ref, ppm := ce.feeLegs(crypto.PubkeyToAddress(sp.key.PublicKey), class, "")
			if ref != ce.vault {
				t.Fatalf("unbound wallet: feeLegs.referrer %s, want the vault %s", ref.Hex(), ce.vault.Hex())
			}
			sp.referrer, sp.ppm = ref, &ppm
			ce.submit(sp)
		})
	}
	refused := func(name string, sp spec, msg string) {
		t.Helper()
		body, _ := ce.build(sp)
		if r := ce.submitRaw(body); r.Status != 400 || r.Code() != "FEE_PARAMS_MISMATCH" || !strings.Contains(string(r.Body), msg) {
			t.Fatalf("%s: %d %s, want 400 FEE_PARAMS_MISMATCH containing %q", name, r.Status, r.Body, msg)
		}
	}
	wallet := common.HexToAddress("0x00000000000000000000000000000000000000f1")
	ref, ppm := ce.feeLegs(wallet, "", "")
	refused("direct-swap cell", signed("limit", ref, ppm), "orderType=limit")
	ref, ppm = ce.feeLegs(wallet, "limit", "")
	refused("limit cell on a stop_loss", signed("stop_loss", ref, ppm), "stop_loss")

	// A third party's referrer: served, accepted, then bound.
	key := newKey(t)
	maker := crypto.PubkeyToAddress(key.PublicKey)
	third := common.HexToAddress("0x00000000000000000000000000000000000BEEF3")
	ref, ppm = ce.feeLegs(maker, "limit", third.Hex())
	if ref != third { // unbound: the parameter is served
		t.Fatalf("feeLegs.referrer %s, want the referrer parameter %s", ref.Hex(), third.Hex())
	}
	sp := ce.spec("limit", key)
	sp.referrer, sp.ppm = ref, &ppm
	ce.submit(sp)
	if ref, _ = ce.feeLegs(maker, "limit", ""); ref != third {
		t.Fatalf("bound wallet: feeLegs.referrer %s, want its referrer %s", ref.Hex(), third.Hex())
	}
	sp = ce.spec("limit", key)
	sp.referrer, sp.ppm = ce.vault, &ppm
	refused("bound wallet naming the vault", sp, "bound referrer")
}

// TestBoundWalletRoutedWithAnotherReferrer is contract.md section 8: a
// wallet bound to referrer A (its first order named A), routed by a third
// party with referrer=B, is served A with referrerBound true and B echoed,
// and an order signed with exactly those legs is accepted (submit rule 1).
func TestBoundWalletRoutedWithAnotherReferrer(t *testing.T) {
	ce := newChainEnv(t)
	key := newKey(t)
	maker := crypto.PubkeyToAddress(key.PublicKey)
	a := common.HexToAddress("0x00000000000000000000000000000000000000A1")
	b := common.HexToAddress("0x00000000000000000000000000000000000000B2")

	legs := ce.routeLegs(maker, "limit", a.Hex())
	if common.HexToAddress(legs.Referrer) != a || *legs.ReferrerBound || legs.RequestedReferrer == nil || *legs.RequestedReferrer != a.Hex() {
		t.Fatalf("unbound wallet with referrer=A: %+v", legs)
	}
	sp := ce.spec("limit", key)
	ppm := legs.Fees.Triggered.ReferralPpm
	sp.referrer, sp.ppm = a, &ppm
	ce.submit(sp) // binds maker to A

	for _, class := range []string{"limit", "stop_loss"} {
		legs = ce.routeLegs(maker, class, b.Hex())
		if common.HexToAddress(legs.Referrer) != a || !*legs.ReferrerBound || legs.RequestedReferrer == nil || *legs.RequestedReferrer != b.Hex() {
			t.Fatalf("%s: bound wallet with referrer=B: referrer %s bound %v requested %v, want A %s, true, B %s",
				class, legs.Referrer, *legs.ReferrerBound, legs.RequestedReferrer, a.Hex(), b.Hex())
		}
		sp := ce.spec(class, key)
		ppm := legs.Fees.Triggered.ReferralPpm
		sp.referrer, sp.ppm = common.HexToAddress(legs.Referrer), &ppm
		body, _ := ce.build(sp)
		if r := ce.submitRaw(body); r.Status != 201 {
			t.Fatalf("%s: the served legs of a bound wallet: %d %s, want 201", class, r.Status, r.Body)
		}
	}
	// Without a referrer parameter: the binding, nothing requested.
	legs = ce.routeLegs(maker, "limit", "")
	if common.HexToAddress(legs.Referrer) != a || !*legs.ReferrerBound || legs.RequestedReferrer != nil {
		t.Fatalf("bound wallet without referrer: %+v", legs)
	}
	// B itself is still refused for the bound wallet.
	sp = ce.spec("limit", key)
	sp.referrer, sp.ppm = b, &ppm
	body, _ := ce.build(sp)
	if r := ce.submitRaw(body); r.Status != 400 || r.Code() != "FEE_PARAMS_MISMATCH" {
		t.Fatalf("bound wallet naming B: %d %s", r.Status, r.Body)
	}
}
