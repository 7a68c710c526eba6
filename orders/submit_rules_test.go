package orders_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// ruleCase is one refused submission of TestSubmitRules: the spec edit, the
// status and code, and a part of the message (which names the field).
type ruleCase struct {
	name   string
	sp     func(spec) spec
	status int
	code   string
	msg    string
}

// editBody returns a rule edit that changes the signed JSON body.
func editBody(f func(body, order map[string]any)) func(spec) spec {
	return func(s spec) spec { s.edit = f; return s }
}

// asClass returns a rule edit that starts from class's default spec.
func asClass(class string, f func(*spec)) func(spec) spec {
	return func(s spec) spec {
		s = defaultSpec(class, s.key)
		f(&s)
		return s
	}
}

const twoTo256 = "115792089237316195423570985008687907853269984665640564039457584007913129639936"

// schemaCases are INVALID_REQUEST: missing, ill-typed, malformed or
// oversized fields; the message names the field.
var schemaCases = []ruleCase{
	{"unknown top-level field", editBody(func(b, _ map[string]any) { b["expiry"] = "1" }), 400, "INVALID_REQUEST", "expiry is not a field of the submit body"},
	{"unknown top-level field null", editBody(func(b, _ map[string]any) { b["nonce"] = nil }), 400, "INVALID_REQUEST", "nonce is not a field of the submit body"},
	{"triggerAmountOut at the top level", editBody(func(b, _ map[string]any) { b["triggerAmountOut"] = "1" }), 400, "INVALID_REQUEST", "triggerAmountOut is not a field of the submit body"},
	{"missing order", editBody(func(b, _ map[string]any) { delete(b, "order") }), 400, "INVALID_REQUEST", "order is required"},
	{"order not an object", editBody(func(b, _ map[string]any) { b["order"] = "x" }), 400, "INVALID_REQUEST", "order must be an object"},
	{"orderType a number", editBody(func(b, _ map[string]any) { b["orderType"] = 1 }), 400, "INVALID_REQUEST", "orderType must be a string"},
	{"missing orderHash", editBody(func(b, _ map[string]any) { delete(b, "orderHash") }), 400, "INVALID_REQUEST", "orderHash is required"},
	{"orderHash not a hash", editBody(func(b, _ map[string]any) { b["orderHash"] = "0x12" }), 400, "INVALID_REQUEST", "orderHash must be a 0x-prefixed 32-byte hex hash"},
	{"signature a number", editBody(func(b, _ map[string]any) { b["signature"] = 5 }), 400, "INVALID_REQUEST", "signature must be a string"},
	{"signature odd hex", editBody(func(b, _ map[string]any) { b["signature"] = "0xabc" }), 400, "INVALID_REQUEST", "signature must be 0x-prefixed hex bytes"},
	{"signature over 4096 bytes", editBody(func(b, _ map[string]any) { b["signature"] = "0x" + strings.Repeat("ab", 4097) }), 400, "INVALID_REQUEST", "signature is longer than 4096 bytes"},
	{"missing maker", editBody(func(_, o map[string]any) { delete(o, "maker") }), 400, "INVALID_REQUEST", "order.maker is required"},
	{"maker a number", editBody(func(_, o map[string]any) { o["maker"] = 12 }), 400, "INVALID_REQUEST", "order.maker must be a string"},
	{"missing salt", editBody(func(_, o map[string]any) { delete(o, "salt") }), 400, "INVALID_REQUEST", "order.salt"},
	{"salt over 64 hex digits", editBody(func(_, o map[string]any) { o["salt"] = "0x1" + strings.Repeat("0", 64) }), 400, "INVALID_REQUEST", "order.salt has more than 64 hex digits"},
	{"amountIn 2^256", editBody(func(_, o map[string]any) { o["amountIn"] = twoTo256 }), 400, "INVALID_REQUEST", "order.amountIn exceeds 2^256-1"},
	{"amountIn 1000 digits", editBody(func(_, o map[string]any) { o["amountIn"] = strings.Repeat("9", 1000) }), 400, "INVALID_REQUEST", "order.amountIn exceeds 2^256-1"},
	{"amountIn negative", editBody(func(_, o map[string]any) { o["amountIn"] = "-1" }), 400, "INVALID_REQUEST", "order.amountIn must be a decimal integer string"},
	{"amountIn with a space", editBody(func(_, o map[string]any) { o["amountIn"] = " 1" }), 400, "INVALID_REQUEST", "order.amountIn must be a decimal integer string"},
	{"triggerPrice hex", editBody(func(_, o map[string]any) { o["triggerPrice"] = "0x10" }), 400, "INVALID_REQUEST", "order.triggerPrice must be a decimal integer string"},
	{"makerTraits 2^256", editBody(func(_, o map[string]any) { o["makerTraits"] = twoTo256 }), 400, "INVALID_REQUEST", "order.makerTraits exceeds 2^256-1"},
	{"triggerAmountOut a number", editBody(func(_, o map[string]any) { o["triggerAmountOut"] = 1 }), 400, "INVALID_REQUEST", "order.triggerAmountOut must be a string"},
	{"missing referralFeePpm", editBody(func(_, o map[string]any) { delete(o, "referralFeePpm") }), 400, "INVALID_REQUEST", "order.referralFeePpm is required"},
	{"referralFeePpm negative", editBody(func(_, o map[string]any) { o["referralFeePpm"] = -1 }), 400, "INVALID_REQUEST", "order.referralFeePpm must be a non-negative integer"},
	{"referralFeePpm fraction", editBody(func(_, o map[string]any) { o["referralFeePpm"] = 1.5 }), 400, "INVALID_REQUEST", "order.referralFeePpm must be a non-negative integer"},
	{"referralFeePpm over uint64", editBody(func(_, o map[string]any) { o["referralFeePpm"] = json.RawMessage("18446744073709551616") }), 400, "INVALID_REQUEST", "order.referralFeePpm must be a non-negative integer"},
	{"intervalSeconds a number", asClass("dca", func(s *spec) { s.extra = map[string]any{"intervalSeconds": 3600} }), 400, "INVALID_REQUEST", "intervalSeconds must be a string"},
	{"flexibilityPpm a string", asClass("dca", func(s *spec) { s.extra = map[string]any{"flexibilityPpm": "100000"} }), 400, "INVALID_REQUEST", "flexibilityPpm must be an integer"},
	{"shortCircuit a string", asClass("dca", func(s *spec) { s.extra = map[string]any{"shortCircuit": "false"} }), 400, "INVALID_REQUEST", "shortCircuit must be a boolean"},
	{"trailPpm a string", asClass("trailing", func(s *spec) { s.extra = map[string]any{"trailPpm": "20000"} }), 400, "INVALID_REQUEST", "trailPpm must be an integer"},
	{"designatedKeeper a number", asClass("trailing", func(s *spec) { s.extra = map[string]any{"designatedKeeper": 1} }), 400, "INVALID_REQUEST", "designatedKeeper must be a string"},
	{"dca without totalAmountIn", asClass("dca", func(s *spec) { s.edit = func(b, _ map[string]any) { delete(b, "totalAmountIn") } }), 400, "INVALID_REQUEST", "totalAmountIn is required for a dca order"},
	{"dca without intervalSeconds", asClass("dca", func(s *spec) { s.edit = func(b, _ map[string]any) { delete(b, "intervalSeconds") } }), 400, "INVALID_REQUEST", "intervalSeconds is required for a dca order"},
	{"trailing without trailPpm", asClass("trailing", func(s *spec) { s.edit = func(b, _ map[string]any) { delete(b, "trailPpm") } }), 400, "INVALID_REQUEST", "trailPpm is required for a trailing order"},
}

// contentCases are INVALID_ORDER: the order's content.
var contentCases = []ruleCase{
	{"maker malformed", editBody(func(_, o map[string]any) { o["maker"] = "0x1234" }), 400, "INVALID_ORDER", "order.maker must be a 0x-prefixed 20-byte hex address"},
	{"maker zero", editBody(func(_, o map[string]any) { o["maker"] = common.Address{}.Hex() }), 400, "INVALID_ORDER", "order.maker must not be the zero address"},
	{"tokenIn zero", editBody(func(_, o map[string]any) { o["tokenIn"] = common.Address{}.Hex() }), 400, "INVALID_ORDER", "order.tokenIn must not be the zero address"},
	{"tokenOut not hex", editBody(func(_, o map[string]any) { o["tokenOut"] = "0x" + strings.Repeat("zz", 20) }), 400, "INVALID_ORDER", "order.tokenOut"},
	{"same tokens in another case", editBody(func(_, o map[string]any) { o["tokenOut"] = strings.ToLower(o["tokenIn"].(string)) }), 400, "INVALID_ORDER", "must differ"},
	{"referralFeePpm over 1e6", editBody(func(_, o map[string]any) { o["referralFeePpm"] = 1_000_001 }), 400, "INVALID_ORDER", "order.referralFeePpm 1000001 exceeds 1000000"},
	{"designatedKeeper malformed", asClass("trailing", func(s *spec) { s.extra = map[string]any{"designatedKeeper": "0x12"} }), 400, "INVALID_ORDER", "designatedKeeper must be a 0x-prefixed"},
}

// keeperAA is a designated keeper of the trailing cases.
var keeperAA = common.HexToAddress("0x00000000000000000000000000000000000000aa")

// traitsCases are INVALID_TRAITS: the signed traits against the orderType,
// and the top-level dca/trailing fields against the signed traits.
var traitsCases = []ruleCase{
	{"take_profit labeled stop_loss", asClass("take_profit", func(s *spec) { s.class = "stop_loss" }), 400, "INVALID_TRAITS", "orderType is stop_loss but makerTraits.flags classify the order as take_profit"},
	{"stop_loss labeled take_profit", asClass("stop_loss", func(s *spec) { s.class = "take_profit" }), 400, "INVALID_TRAITS", "classify the order as stop_loss"},
	{"two kind flags", asClass("stop_loss", func(s *spec) { s.traits.Flags |= chain.FlagTakeProfit }), 400, "INVALID_TRAITS", "more than one kind flag"},
	{"ALLOW_PARTIAL_FILL on stop_loss", asClass("stop_loss", func(s *spec) { s.traits.Flags |= chain.FlagAllowPartialFill }), 400, "INVALID_TRAITS", "ALLOW_PARTIAL_FILL"},
	{"PRICE_GATED on limit", func(s spec) spec { s.traits.Flags |= chain.FlagPriceGated; return s }, 400, "INVALID_TRAITS", "PRICE_GATED"},
	{"slippage over 1e6", func(s spec) spec { s.traits.SlippagePpm = 1_000_001; return s }, 400, "INVALID_TRAITS", "makerTraits.slippagePpm"},
	{"kindParamPpm on limit", func(s spec) spec { s.traits.KindParamPpm = 5; return s }, 400, "INVALID_TRAITS", "makerTraits.kindParamPpm"},
	{"stop_loss without price", asClass("stop_loss", func(s *spec) { s.price = 0 }), 400, "INVALID_TRAITS", "order.triggerPrice"},
	{"trailing with a price", asClass("trailing", func(s *spec) { s.price = 5 }), 400, "INVALID_TRAITS", "order.triggerPrice must be 0"},
	{"dca legs under one unit", asClass("dca", func(s *spec) { s.amountIn = 3 }), 400, "INVALID_TRAITS", "every leg must be at least 1 unit"},
	{"dca totalAmountIn differs", asClass("dca", func(s *spec) { s.extra = map[string]any{"totalAmountIn": "5"} }), 400, "INVALID_TRAITS", "totalAmountIn 5 differs"},
	{"dca totalExecutions differs", asClass("dca", func(s *spec) { s.extra = map[string]any{"totalExecutions": "5"} }), 400, "INVALID_TRAITS", "totalExecutions 5 differs"},
	{"dca intervalSeconds out of range", asClass("dca", func(s *spec) { s.extra = map[string]any{"intervalSeconds": strings.Repeat("9", 30)} }), 400, "INVALID_TRAITS", "intervalSeconds"},
	{"dca flexibilityPpm differs", asClass("dca", func(s *spec) { s.extra = map[string]any{"flexibilityPpm": 5} }), 400, "INVALID_TRAITS", "flexibilityPpm 5 differs"},
	{"dca flexibilityPpm absent but signed", asClass("dca", func(s *spec) { s.edit = func(b, _ map[string]any) { delete(b, "flexibilityPpm") } }), 400, "INVALID_TRAITS", "flexibilityPpm 0 differs"},
	{"dca shortCircuit differs", asClass("dca", func(s *spec) { s.extra = map[string]any{"shortCircuit": true} }), 400, "INVALID_TRAITS", "shortCircuit true differs"},
	{"trailPpm on dca", asClass("dca", func(s *spec) { s.extra = map[string]any{"trailPpm": 5} }), 400, "INVALID_TRAITS", "trailPpm applies only to trailing orders"},
	{"intervalSeconds on trailing", asClass("trailing", func(s *spec) { s.extra = map[string]any{"intervalSeconds": "1"} }), 400, "INVALID_TRAITS", "intervalSeconds applies only to dca orders"},
	{"designatedKeeper on limit", func(s spec) spec { s.extra = map[string]any{"designatedKeeper": keeperAA.Hex()}; return s }, 400, "INVALID_TRAITS", "designatedKeeper applies only to trailing orders"},
	{"designatedKeeper differs from allowedSender", asClass("trailing", func(s *spec) {
		s.extra = map[string]any{"designatedKeeper": "0x00000000000000000000000000000000000000bb"}
	}), 400, "INVALID_TRAITS", "differ from makerTraits.allowedSender"},
	{"designatedKeeper absent but allowedSender signed", asClass("trailing", func(s *spec) { s.traits.AllowedSender = chain.SenderLow80(keeperAA) }), 400, "INVALID_TRAITS", "designatedKeeper is absent"},
}

// signatureCases are BAD_SIGNATURE: malformed, wrong length, bad v,
// malleable (high-s).
var signatureCases = []ruleCase{
	{"signature empty", editBody(func(b, _ map[string]any) { b["signature"] = "0x" }), 400, "BAD_SIGNATURE", "0 bytes"},
	{"signature 10 bytes", editBody(func(b, _ map[string]any) { b["signature"] = "0x" + strings.Repeat("ab", 10) }), 400, "BAD_SIGNATURE", "10 bytes"},
	{"signature v 29", editBody(func(b, _ map[string]any) {
		b["signature"] = withSig(b, func(sig []byte) []byte { sig[64] = 29; return sig })
	}), 400, "BAD_SIGNATURE", "v is 29"},
	{"signature high s", editBody(func(b, _ map[string]any) { b["signature"] = withSig(b, highS) }), 400, "BAD_SIGNATURE", "upper half of the curve order"},
	{"v7.0 signature names the fix", func(s spec) spec { s.signV70 = true; return s }, 400, "BAD_SIGNATURE", chain.V70Message},
}

// withSig applies f to the body's signature bytes and returns the hex.
func withSig(body map[string]any, f func([]byte) []byte) string {
	return hexutil.Encode(f(common.FromHex(body["signature"].(string))))
}

// highS returns the malleable twin of a 65-byte signature: s' = n - s
// with the other recovery id. It recovers to the same signer.
func highS(sig []byte) []byte {
	n := crypto.S256().Params().N
	s := new(big.Int).Sub(n, new(big.Int).SetBytes(sig[32:64]))
	copy(sig[32:64], common.LeftPadBytes(s.Bytes(), 32))
	sig[64] = 27 + 28 - sig[64]
	return sig
}

// compact returns the EIP-2098 form of a 65-byte signature.
func compact(sig []byte) []byte {
	out := append([]byte{}, sig[:64]...)
	if sig[64] == 28 || sig[64] == 1 {
		out[32] |= 0x80
	}
	return out
}

// TestSubmitBodyShape sends bodies that are not a submit object at all.
func TestSubmitBodyShape(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct{ name, body, msg string }{
		// The order service reads the body as JSON once (the route does not
		// validate it first) and answers as the route does for any body.
		{"empty", ``, "request body is not valid JSON: send a SubmitOrderRequest object"},
		{"truncated", `{"orderType":"limit",`, "request body is not valid JSON: send a SubmitOrderRequest object"},
		{"array", `[1]`, "request body must be a JSON object"},
		{"string", `"limit"`, "request body must be a JSON object"},
		{"null", `null`, "request body must be a JSON object"},
		{"empty object", `{}`, "orderType is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.submitRaw([]byte(tc.body))
			if r.Status != 400 || r.Code() != "INVALID_REQUEST" || !strings.Contains(string(r.Body), tc.msg) {
				t.Fatalf("got %d %s, want 400 INVALID_REQUEST containing %q", r.Status, r.Body, tc.msg)
			}
		})
	}
	// A 50 KB orderType (under the 64 KiB body limit) is refused with a
	// short message: client input is echoed truncated.
	sp := defaultSpec("limit", newKey(t))
	sp.edit = func(b, _ map[string]any) { b["orderType"] = strings.Repeat("x", 50_000) }
	body, _ := e.build(sp)
	if r := e.submitRaw(body); r.Status != 400 || r.Code() != "INVALID_REQUEST" || len(r.Body) > 512 {
		t.Fatalf("long orderType: %d (%d bytes) %.200s", r.Status, len(r.Body), r.Body)
	}
}

// TestSubmitAcceptedEdges are submissions at the edge of a rule that must
// be accepted.
func TestSubmitAcceptedEdges(t *testing.T) {
	e := newEnv(t)
	otherPpm := config.Default().Routing.FeePolicy["limit"][config.ClassOther].ReferralPpm
	cases := []struct {
		name string
		sp   func(spec) spec
	}{
		{"deadline equal to now", func(s spec) spec { s.traits.Deadline = uint64(e.clk.Now().Unix()); return s }},
		{"signature v 0/1", editBody(func(b, _ map[string]any) {
			b["signature"] = withSig(b, func(sig []byte) []byte { sig[64] -= 27; return sig })
		})},
		{"EIP-2098 compact signature", editBody(func(b, _ map[string]any) { b["signature"] = withSig(b, compact) })},
		{"triggerAmountOut given and equal", editBody(func(_, o map[string]any) { o["triggerAmountOut"] = "2000000000" })},
		{"lowercase addresses", editBody(func(_, o map[string]any) {
			for _, k := range []string{"maker", "receiver", "tokenIn", "tokenOut", "referrer"} {
				o[k] = strings.ToLower(o[k].(string))
			}
		})},
		{"zero receiver (the router pays the maker)", func(s spec) spec { s.receiver = &common.Address{}; return s }},
		{"limit on a pair without oracle", func(s spec) spec { s.out = tokC; s.ppm = &otherPpm; return s }},
		{"trailing with its designated keeper", asClass("trailing", func(s *spec) {
			s.traits.AllowedSender = chain.SenderLow80(keeperAA)
			s.extra = map[string]any{"designatedKeeper": keeperAA.Hex()}
		})},
		{"dca with shortCircuit signed", asClass("dca", func(s *spec) { s.traits.Flags |= chain.FlagShortCircuit })},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.submit(tc.sp(defaultSpec("limit", newKey(t))))
		})
	}
}

// TestSubmitPerKeyLimit: the order bucket of the key refuses a valid order
// with 429 RATE_LIMITED and its headers, before anything is stored.
func TestSubmitPerKeyLimit(t *testing.T) {
	e := newEnv(t, apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 100, Read: 100, Order: 2}))
	for i := range 2 {
		body, _ := e.build(defaultSpec("limit", newKey(t)))
		r := e.submitRaw(body)
		if r.Status != 201 || r.Header.Get("X-RateLimit-Limit") != "2" || r.Header.Get("X-RateLimit-Remaining") != []string{"1", "0"}[i] ||
			r.Header.Get("X-RateLimit-Reset") == "" {
			t.Fatalf("submit %d: %d %v %s", i, r.Status, r.Header, r.Body)
		}
	}
	body, h := e.build(defaultSpec("limit", newKey(t)))
	r := e.submitRaw(body)
	if r.Status != 429 || r.Code() != "RATE_LIMITED" || r.Header.Get("Retry-After") == "" || r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("3rd submit: %d %v %s", r.Status, r.Header, r.Body)
	}
	if r := e.srv.Get("/v1/orders/" + h.Hex()); r.Status != 404 {
		t.Fatalf("a rate-limited order was stored: %d %s", r.Status, r.Body)
	}
	e.clk.Advance(61 * time.Second)
	if r := e.submitRaw(body); r.Status != 201 {
		t.Fatalf("after the window: %d %s", r.Status, r.Body)
	}
}

// TestSubmitContentType: a valid order declared as another media type is
// refused (INVALID_REQUEST naming Content-Type) and not stored; without the
// header the body is parsed as JSON.
func TestSubmitContentType(t *testing.T) {
	e := newEnv(t)
	body, h := e.build(defaultSpec("limit", newKey(t)))
	r := e.srv.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": e.srv.APIKey, "Content-Type": "text/plain;charset=UTF-8"})
	if r.Status != 400 || r.Code() != "INVALID_REQUEST" || !strings.Contains(string(r.Body), "Content-Type") {
		t.Fatalf("text/plain: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Get("/v1/orders/" + h.Hex()); r.Status != 404 {
		t.Fatalf("a refused order was stored: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": e.srv.APIKey, "Content-Type": ""}); r.Status != 201 {
		t.Fatalf("no Content-Type: %d %s", r.Status, r.Body)
	}
}

// TestSubmitCheckOrder pins the order of the checks that docs/orders.md
// lists, where one submission fails two of them: the first listed answers.
func TestSubmitCheckOrder(t *testing.T) {
	e := newEnv(t)
	// The body limit comes before the key.
	r := e.srv.Do("POST", "/v1/orders", []byte(strings.Repeat(" ", 70<<10)), nil)
	if r.Status != 413 || r.Code() != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("70 KiB without a key: %d %s", r.Status, r.Body)
	}
	// The deadline comes before the top-level dca fields.
	sp := defaultSpec("dca", newKey(t))
	sp.traits.Deadline = uint64(e.clk.Now().Unix() - 1)
	sp.extra = map[string]any{"totalAmountIn": "5"}
	body, _ := e.build(sp)
	if r := e.submitRaw(body); r.Status != 400 || r.Code() != "ORDER_EXPIRED" {
		t.Fatalf("expired with a wrong totalAmountIn: %d %s", r.Status, r.Body)
	}
	// After the signature: chain state, fee fields, per-maker limit,
	// duplicate.
	key := newKey(t)
	var first []byte
	for i := range 10 {
		sp := defaultSpec("limit", key)
		sp.price += uint64(i)
		body, _ := e.build(sp)
		if r := e.submitRaw(body); r.Status != 201 {
			t.Fatalf("submit %d: %d %s", i, r.Status, r.Body)
		}
		if i == 0 {
			first = body
		}
	}
	e.indexChain(10, func(cb *chainstore.Batch) error {
		return chainstore.ApplyNonceInvalidated(cb, chainstore.Nonce{Maker: crypto.PubkeyToAddress(key.PublicKey), Nonce: 77, Block: 10, TxHash: common.Hash{7}})
	})
	wrongPpm := uint32(1)
	invalidated := defaultSpec("limit", key)
	invalidated.traits.Nonce, invalidated.ppm = 77, &wrongPpm
	offPolicy := defaultSpec("limit", key)
	offPolicy.ppm = &wrongPpm
	good, _ := e.build(defaultSpec("limit", key))
	for _, tc := range []struct {
		name   string
		body   []byte
		status int
		code   string
	}{
		{"nonce invalidated, off-policy fee, maker over its limit", must(e.build(invalidated)), 400, "INVALID_ORDER"},
		{"off-policy fee, maker over its limit", must(e.build(offPolicy)), 400, "FEE_PARAMS_MISMATCH"},
		{"maker over its limit", good, 429, "MAKER_RATE_LIMITED"},
		{"duplicate, maker over its limit", first, 429, "MAKER_RATE_LIMITED"},
	} {
		if r := e.submitRaw(tc.body); r.Status != tc.status || r.Code() != tc.code {
			t.Fatalf("%s: %d %s, want %d %s", tc.name, r.Status, r.Body, tc.status, tc.code)
		}
	}
}

func must(body []byte, _ common.Hash) []byte { return body }

// TestSubmitNeedsKey: a valid order without a key, or with an unknown one,
// is 401 UNAUTHORIZED and not stored; both key forms are accepted.
func TestSubmitNeedsKey(t *testing.T) {
	e := newEnv(t)
	body, h := e.build(defaultSpec("limit", newKey(t)))
	for _, hdr := range []map[string]string{nil, {"X-API-Key": "svc_unknown"}, {"Authorization": "Basic " + e.srv.APIKey}} {
		if r := e.srv.Do("POST", "/v1/orders", body, hdr); r.Status != 401 || r.Code() != "UNAUTHORIZED" {
			t.Fatalf("%v: %d %s", hdr, r.Status, r.Body)
		}
	}
	if r := e.srv.Get("/v1/orders/" + h.Hex()); r.Status != 404 {
		t.Fatalf("an unauthenticated order was stored: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Do("POST", "/v1/orders", body, map[string]string{"Authorization": "Bearer " + e.srv.APIKey}); r.Status != 201 {
		t.Fatalf("bearer key: %d %s", r.Status, r.Body)
	}
}
