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
		FeeLegs struct {
			Referrer string `json:"referrer"`
			Fees     struct {
				Triggered struct {
					ReferralPpm uint32 `json:"referralPpm"`
				} `json:"triggered"`
			} `json:"fees"`
		} `json:"feeLegs"`
	}
	if err := json.Unmarshal(r.Body, &route); err != nil {
		ce.t.Fatal(err)
	}
	return common.HexToAddress(route.FeeLegs.Referrer), route.FeeLegs.Fees.Triggered.ReferralPpm
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
	if ref != third {
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
