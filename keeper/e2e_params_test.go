package keeper_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/keeper"
)

// The parameters of GET /v1/keeper/executable: a malformed pair, the same
// token twice, a keeper that is not an address (or has a bad EIP-55
// checksum), a limit out of 1..500 and a cursor that is not an order hash
// are 400 INVALID_REQUEST, never an empty list a keeper would take for
// "nothing to do"; a valid pair filter, lowercase or checksummed, keeps
// the pair's orders and drops the others.
func TestE2EExecutableParameters(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	h := e.submit("limit", 10_000_000, usdcInWeth(4000), chain.Traits{Nonce: 81, SlippagePpm: 50_000}, nil)
	usdc, weth, dai := e.tok("USDC").Hex(), e.tok("WETH").Hex(), e.tok("DAI").Hex()
	get := func(q string) (int, keeper.ExecutableList, string) {
		t.Helper()
		r := e.srv.Do("GET", "/v1/keeper/executable?"+q, nil, map[string]string{"X-API-Key": e.srv.APIKey})
		var list keeper.ExecutableList
		var er struct {
			Code string `json:"code"`
		}
		_ = json.Unmarshal(r.Body, &list)
		_ = json.Unmarshal(r.Body, &er)
		return r.Status, list, er.Code
	}
	e.waitFor("the order to be listed", func() bool { _, l, _ := get(""); return len(l.Orders) == 1 })
	// WETH's checksummed address with the case of one letter flipped.
	badChecksum := []byte(weth)
	for i := 2; i < len(badChecksum); i++ {
		if c := badChecksum[i]; c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
			badChecksum[i] ^= 0x20
			break
		}
	}
	for _, q := range []string{
		"pair=nope", "pair=" + usdc, "pair=" + usdc + "-" + usdc, "pair=" + usdc + "-0x12", "pair=USDC-WETH",
		"keeper=0x12", "keeper=" + strings.TrimPrefix(weth, "0x"), "keeper=" + string(badChecksum), "pair=" + usdc + "-" + string(badChecksum),
		"limit=0", "limit=501", "limit=x", "cursor=0x12", "cursor=" + h.Hex()[:64],
	} {
		if st, _, code := get(q); st != 400 || code != "INVALID_REQUEST" {
			t.Errorf("%s: %d %s, want 400 INVALID_REQUEST", q, st, code)
		}
	}
	for _, q := range []string{"pair=" + usdc + "-" + weth, "pair=" + strings.ToLower(usdc+"-"+weth)} {
		if st, l, _ := get(q); st != 200 || len(l.Orders) != 1 || l.Orders[0].OrderHash != h.Hex() {
			t.Errorf("%s: %d %+v", q, st, l.Orders)
		}
	}
	for _, q := range []string{"pair=" + weth + "-" + usdc, "pair=" + usdc + "-" + dai} {
		if st, l, _ := get(q); st != 200 || len(l.Orders) != 0 {
			t.Errorf("%s: %d %+v", q, st, l.Orders)
		}
	}
}
