package orders_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
)

func TestSubmitHappyPathPerClass(t *testing.T) {
	e := newEnv(t)
	for _, class := range []string{"limit", "stop_loss", "take_profit", "dca", "trailing"} {
		t.Run(class, func(t *testing.T) {
			key := newKey(t)
			h := e.submit(defaultSpec(class, key))
			rec := e.get(h)
			maker := crypto.PubkeyToAddress(key.PublicKey).Hex()
			order := rec["order"].(map[string]any)
			if rec["status"] != "pending" || rec["orderType"] != class || order["maker"] != maker || rec["accountId"] != e.srv.AccountID {
				t.Fatalf("record %v", rec)
			}
			if rec["pair"] != tokA.Hex()+"-"+tokB.Hex() || rec["filledAmountIn"] != "0" || rec["executions"] != 0.0 {
				t.Fatalf("record %v", rec)
			}
			switch class {
			case "limit":
				// 1e18 * 2e9 / 1e18: triggerAmountOut derived from tokenIn's 18 decimals.
				if order["triggerAmountOut"] != "2000000000" {
					t.Fatalf("triggerAmountOut %v", order["triggerAmountOut"])
				}
			case "dca":
				dca := rec["dca"].(map[string]any)
				if dca["intervalSeconds"] != 3600.0 || dca["totalExecutions"] != 4.0 || dca["flexibilityPpm"] != 100000.0 {
					t.Fatalf("dca %v", dca)
				}
			case "trailing":
				if tr := rec["trailing"].(map[string]any); tr["trailPpm"] != 20000.0 || tr["designatedKeeper"] != nil {
					t.Fatalf("trailing %v", tr)
				}
			}
		})
	}
	e.consistent()
}

func TestSubmitRules(t *testing.T) {
	e := newEnv(t)
	other := newKey(t)
	past := uint64(e.clk.Now().Unix() - 10)
	wrongPpm := uint32(1)
	cases := []ruleCase{
		{"missing orderType", func(s spec) spec { s.edit = func(b, _ map[string]any) { delete(b, "orderType") }; return s }, 400, "INVALID_REQUEST", "orderType is required"},
		{"unknown orderType", func(s spec) spec { s.edit = func(b, _ map[string]any) { b["orderType"] = "market" }; return s }, 400, "INVALID_REQUEST", "orderType"},
		{"amountIn not decimal", func(s spec) spec { s.edit = func(_, o map[string]any) { o["amountIn"] = "1e18" }; return s }, 400, "INVALID_REQUEST", "order.amountIn"},
		{"amountIn a number", func(s spec) spec { s.edit = func(_, o map[string]any) { o["amountIn"] = 5 }; return s }, 400, "INVALID_REQUEST", "order.amountIn must be a string"},
		{"missing signature", func(s spec) spec { s.edit = func(b, _ map[string]any) { delete(b, "signature") }; return s }, 400, "INVALID_REQUEST", "signature is required"},
		{"unknown order field", func(s spec) spec { s.edit = func(_, o map[string]any) { o["nonce"] = "1" }; return s }, 400, "INVALID_REQUEST", "order.nonce"},
		{"referralFeePpm string", func(s spec) spec { s.edit = func(_, o map[string]any) { o["referralFeePpm"] = "5" }; return s }, 400, "INVALID_REQUEST", "order.referralFeePpm"},
		{"zero amount", func(s spec) spec { s.amountIn = 0; return s }, 400, "INVALID_ORDER", "amountIn"},
		{"same tokens", func(s spec) spec { s.out = s.in; return s }, 400, "INVALID_ORDER", "must differ"},
		{"bad checksum", func(s spec) spec {
			s.edit = func(_, o map[string]any) { o["receiver"] = "0xAbCdEf0000000000000000000000000000000001" }
			return s
		}, 400, "INVALID_ORDER", "order.receiver"},
		{"triggerAmountOut mismatch", func(s spec) spec { s.edit = func(_, o map[string]any) { o["triggerAmountOut"] = "1" }; return s }, 400, "INVALID_ORDER", "triggerAmountOut"},
		{"limit without price", func(s spec) spec { s.price = 0; return s }, 400, "INVALID_TRAITS", "triggerPrice"},
		{"mislabeled stop", func(s spec) spec { s.traits.Flags = chain.FlagStopLoss; return s }, 400, "INVALID_TRAITS", "stop_loss"},
		{"stop without flag", func(s spec) spec { s.class = "stop_loss"; return s }, 400, "INVALID_TRAITS", "orderType is stop_loss"},
		{"dca interval differs", func(s spec) spec {
			s = defaultSpec("dca", s.key)
			s.extra = map[string]any{"intervalSeconds": "60"}
			return s
		}, 400, "INVALID_TRAITS", "intervalSeconds"},
		{"dca field on limit", func(s spec) spec { s.extra = map[string]any{"totalExecutions": "3"}; return s }, 400, "INVALID_TRAITS", "totalExecutions"},
		{"trailing trailPpm differs", func(s spec) spec {
			s = defaultSpec("trailing", s.key)
			s.extra = map[string]any{"trailPpm": 1}
			return s
		}, 400, "INVALID_TRAITS", "trailPpm"},
		{"expired", func(s spec) spec { s.traits.Deadline = past; return s }, 400, "ORDER_EXPIRED", "deadline"},
		{"wrong signer", func(s spec) spec { s.signer = other; return s }, 400, "BAD_SIGNATURE", "not to the maker"},
		{"v7.0 signature", func(s spec) spec { s.signV70 = true; return s }, 400, "BAD_SIGNATURE", "v7.0"},
		{"referralFeePpm off policy", func(s spec) spec { s.ppm = &wrongPpm; return s }, 400, "FEE_PARAMS_MISMATCH", "referralFeePpm"},
		{"edited referrer breaks the signature", func(s spec) spec {
			s.edit = func(_, o map[string]any) { o["referrer"] = common.Address{}.Hex() }
			return s
		}, 400, "BAD_SIGNATURE", ""},
		{"stop_loss without oracle", func(s spec) spec { s = defaultSpec("stop_loss", s.key); s.out = tokC; return s }, 422, "NO_ORACLE", "CCC"},
		{"unknown tokenIn", func(s spec) spec {
			s.in = common.HexToAddress("0x4000000000000000000000000000000000000004")
			return s
		}, 422, "UNSUPPORTED_PAIR", "tokenIn"},
		{"trailing unknown tokenOut", func(s spec) spec {
			s = defaultSpec("trailing", s.key)
			s.out = common.HexToAddress("0x4000000000000000000000000000000000000004")
			return s
		}, 422, "UNSUPPORTED_PAIR", "tokenOut"},
		{"take_profit without oracle", func(s spec) spec { s = defaultSpec("take_profit", s.key); s.out = tokC; return s }, 422, "NO_ORACLE", "take_profit orders need one"},
		{"trailing without oracle", func(s spec) spec { s = defaultSpec("trailing", s.key); s.out = tokC; return s }, 422, "NO_ORACLE", "trailing orders need one"},
		{"dca without oracle", func(s spec) spec { s = defaultSpec("dca", s.key); s.out = tokC; return s }, 422, "NO_ORACLE", "dca orders need one"},
		{"stop_loss unknown tokenOut", func(s spec) spec {
			s = defaultSpec("stop_loss", s.key)
			s.out = common.HexToAddress("0x4000000000000000000000000000000000000004")
			return s
		}, 422, "UNSUPPORTED_PAIR", "tokenOut"},
	}
	cases = append(cases, schemaCases...)
	cases = append(cases, contentCases...)
	cases = append(cases, traitsCases...)
	cases = append(cases, signatureCases...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, _ := e.build(tc.sp(defaultSpec("limit", newKey(t))))
			r := e.submitRaw(body)
			if r.Status != tc.status || r.Code() != tc.code || !strings.Contains(string(r.Body), tc.msg) {
				t.Fatalf("got %d %s, want %d %s containing %q", r.Status, r.Body, tc.status, tc.code, tc.msg)
			}
		})
	}
	e.consistent()
}

func TestSubmitZeroReferrerSignedIsFeeMismatch(t *testing.T) {
	e := newEnv(t)
	sp := defaultSpec("limit", newKey(t))
	sp.zeroRef = true
	body, _ := e.build(sp)
	r := e.submitRaw(body)
	if r.Status != 400 || r.Code() != "FEE_PARAMS_MISMATCH" || !strings.Contains(string(r.Body), "referrer must be non-zero") {
		t.Fatalf("got %d %s", r.Status, r.Body)
	}
}

func TestSubmitDuplicateAndClientHashMismatch(t *testing.T) {
	e := newEnv(t)
	body, h := e.build(defaultSpec("limit", newKey(t)))
	if r := e.submitRaw(body); r.Status != 201 {
		t.Fatalf("first: %d %s", r.Status, r.Body)
	}
	r := e.submitRaw(body)
	if r.Status != 409 || r.Code() != "ALREADY_EXISTS" || !strings.Contains(string(r.Body), h.Hex()) {
		t.Fatalf("duplicate: %d %s", r.Status, r.Body)
	}
	// A wrong client orderHash alone is not an error: the server's hash is
	// used and the answer says so.
	sp := defaultSpec("limit", newKey(t))
	sp.edit = func(b, _ map[string]any) { b["orderHash"] = "0x" + strings.Repeat("ab", 32) }
	body, h = e.build(sp)
	r = e.submitRaw(body)
	if r.Status != 201 || !strings.Contains(string(r.Body), h.Hex()) || !strings.Contains(string(r.Body), "differs from the server-computed hash") {
		t.Fatalf("mismatched hash: %d %s", r.Status, r.Body)
	}
	// With a failing signature the mismatch is named in the error.
	sp = defaultSpec("limit", newKey(t))
	sp.signer = newKey(t)
	sp.edit = func(b, _ map[string]any) { b["orderHash"] = "0x" + strings.Repeat("cd", 32) }
	body, _ = e.build(sp)
	r = e.submitRaw(body)
	if r.Status != 400 || r.Code() != "BAD_SIGNATURE" || !strings.Contains(string(r.Body), "submitted orderHash") {
		t.Fatalf("bad signature with mismatched hash: %d %s", r.Status, r.Body)
	}
	// So it is in every refusal once the server has hashed the order: a
	// fee mismatch, and a duplicate resubmitted with another orderHash.
	wrongPpm := uint32(1)
	sp = defaultSpec("limit", newKey(t))
	sp.ppm = &wrongPpm
	sp.edit = func(b, _ map[string]any) { b["orderHash"] = "0x" + strings.Repeat("ef", 32) }
	body, h = e.build(sp)
	r = e.submitRaw(body)
	if r.Status != 400 || r.Code() != "FEE_PARAMS_MISMATCH" || !strings.Contains(string(r.Body), "submitted orderHash 0x"+strings.Repeat("ef", 32)) ||
		!strings.Contains(string(r.Body), h.Hex()) {
		t.Fatalf("fee mismatch with mismatched hash: %d %s", r.Status, r.Body)
	}
	sp = defaultSpec("limit", newKey(t))
	body, h = e.build(sp)
	if r := e.submitRaw(body); r.Status != 201 {
		t.Fatalf("submit: %d %s", r.Status, r.Body)
	}
	var resubmit map[string]any
	if err := json.Unmarshal(body, &resubmit); err != nil {
		t.Fatal(err)
	}
	resubmit["orderHash"] = "0x" + strings.Repeat("01", 32)
	body, _ = json.Marshal(resubmit)
	r = e.submitRaw(body)
	if r.Status != 409 || r.Code() != "ALREADY_EXISTS" || !strings.Contains(string(r.Body), "submitted orderHash 0x"+strings.Repeat("01", 32)) {
		t.Fatalf("duplicate with mismatched hash: %d %s", r.Status, r.Body)
	}
}

func TestSubmitMakerLimits(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	for i := range 10 {
		sp := defaultSpec("limit", key)
		sp.price += uint64(i)
		e.submit(sp)
	}
	// The 11th names a wrong client orderHash too, and keeps its Retry-After.
	sp := defaultSpec("limit", key)
	sp.edit = func(b, _ map[string]any) { b["orderHash"] = "0x" + strings.Repeat("ab", 32) }
	body, _ := e.build(sp)
	r := e.submitRaw(body)
	if r.Status != 429 || r.Code() != "MAKER_RATE_LIMITED" || r.Header.Get("Retry-After") == "" || r.Header.Get("X-RateLimit-Limit") == "" ||
		!strings.Contains(string(r.Body), "submitted orderHash") {
		t.Fatalf("11th submit: %d %v %s", r.Status, r.Header, r.Body)
	}
	// Another maker is not limited.
	e.submit(defaultSpec("limit", newKey(t)))
	if got := e.svc().OpenOrders(crypto.PubkeyToAddress(key.PublicKey)); got != 10 {
		t.Fatalf("open orders %d, want 10", got)
	}
	// Once the 10 s window has passed, the refused order is admitted.
	e.clk.Advance(10*time.Second + time.Millisecond)
	if r := e.submitRaw(body); r.Status != 201 {
		t.Fatalf("after the maker window: %d %s", r.Status, r.Body)
	}
}

func TestSubmitOpenOrdersCap(t *testing.T) {
	e := newEnv(t, apptest.WithConfig(func(c *config.Config) { c.Limits.MakerOpenOrders = 3 }))
	key := newKey(t)
	var hashes []common.Hash
	for i := range 3 {
		sp := defaultSpec("limit", key)
		sp.price += uint64(i)
		hashes = append(hashes, e.submit(sp))
	}
	body, _ := e.build(defaultSpec("limit", key))
	if r := e.submitRaw(body); r.Status != 429 || r.Code() != "MAKER_RATE_LIMITED" || !strings.Contains(string(r.Body), "open orders") {
		t.Fatalf("4th open order: %d %s", r.Status, r.Body)
	}
	if r := e.cancel(hashes[0], key); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	e.submit(defaultSpec("limit", key))
}

func TestReferralBinding(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	ref := common.HexToAddress("0x00000000000000000000000000000000000BEEF1")
	sp := defaultSpec("limit", key)
	sp.referrer = ref
	e.submit(sp)
	// Bound now: another referrer is refused ...
	sp = defaultSpec("limit", key)
	sp.referrer = common.HexToAddress("0x00000000000000000000000000000000000BEEF2")
	body, _ := e.build(sp)
	if r := e.submitRaw(body); r.Status != 400 || r.Code() != "FEE_PARAMS_MISMATCH" || !strings.Contains(string(r.Body), "bound referrer") {
		t.Fatalf("other referrer: %d %s", r.Status, r.Body)
	}
	// ... and a v7.0 signature of a referred wallet is FEE_PARAMS_MISMATCH.
	sp = defaultSpec("limit", key)
	sp.referrer = ref
	sp.signV70 = true
	body, _ = e.build(sp)
	if r := e.submitRaw(body); r.Status != 400 || r.Code() != "FEE_PARAMS_MISMATCH" || !strings.Contains(string(r.Body), "v7.0") {
		t.Fatalf("v7.0 of referred wallet: %d %s", r.Status, r.Body)
	}
	// The bound referrer still works.
	sp = defaultSpec("limit", key)
	sp.referrer = ref
	e.submit(sp)
}
