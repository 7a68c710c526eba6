package orders

import (
	"strings"
	"unsafe"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
	"github.com/valyala/fastjson"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
)

// submission is a parsed POST /v1/orders body.
type submission struct {
	class      chain.Class
	order      chain.Order
	signature  []byte
	clientHash string
	// hash is the server's order hash, set once check has computed it.
	hash common.Hash
	// suppliedTAO is order.triggerAmountOut when the payload carries it.
	suppliedTAO *uint256.Int
	kind        chain.KindParams
}

// maxSignatureBytes bounds a signature (EIP-1271 wallets may sign with more
// than 65 bytes, e.g. multisig concatenations).
const maxSignatureBytes = 4096

// orderFields are the accepted fields of "order"; any other is refused, so a
// client never signs a struct the server does not know.
var orderFields = map[string]bool{
	"salt": true, "maker": true, "receiver": true, "tokenIn": true, "tokenOut": true, "amountIn": true,
	"triggerPrice": true, "triggerAmountOut": true, "makerTraits": true, "referrer": true, "referralFeePpm": true,
}

// submitFields are the accepted top-level fields (specification 2.1); any
// other is refused, so a client never believes a field it sent (a misspelt
// one, or triggerAmountOut outside order) was applied.
var submitFields = map[string]bool{
	"orderType": true, "order": true, "signature": true, "orderHash": true,
	"intervalSeconds": true, "totalExecutions": true, "totalAmountIn": true, "flexibilityPpm": true, "shortCircuit": true,
	"trailPpm": true, "designatedKeeper": true,
}

// unknownField returns the first key of o that is not in known, or "".
func unknownField(o *fastjson.Object, known map[string]bool) string {
	var unknown string
	o.Visit(func(k []byte, _ *fastjson.Value) {
		if unknown == "" && !known[string(k)] {
			unknown = string(k)
		}
	})
	return unknown
}

func badRequest(format string, args ...any) error {
	return orderengine.Errorf(orderengine.CodeInvalidRequest, format, args...)
}

// parseSubmission parses body strictly; every schema error (an unknown
// field included) is INVALID_REQUEST naming the field, a malformed address
// is INVALID_ORDER.
func parseSubmission(p *fastjson.Parser, body []byte) (*submission, error) {
	v, err := p.ParseBytes(body)
	if err != nil {
		// The only reading of the body as JSON (the HTTP route does not
		// validate it first): the message the HTTP layer gives any other
		// JSON body.
		return nil, badRequest("request body is not valid JSON: send a SubmitOrderRequest object (GET /v1/openapi.json describes it)")
	}
	if v.Type() != fastjson.TypeObject {
		return nil, badRequest("request body must be a JSON object")
	}
	if k := unknownField(v.GetObject(), submitFields); k != "" {
		return nil, badRequest("%s is not a field of the submit body", truncate(k))
	}
	s := &submission{}
	ot, err := view(v, "orderType", true)
	if err != nil {
		return nil, err
	}
	if s.class, err = chain.ParseClass(ot); err != nil {
		return nil, err
	}
	o := v.Get("order")
	if o == nil || o.Type() == fastjson.TypeNull {
		return nil, badRequest("order is required")
	}
	if o.Type() != fastjson.TypeObject {
		return nil, badRequest("order must be an object")
	}
	if err := parseOrder(o, s); err != nil {
		return nil, err
	}
	sig, err := view(v, "signature", true)
	if err != nil {
		return nil, err
	}
	if s.signature, err = chain.ParseHexBytes("signature", sig, maxSignatureBytes); err != nil {
		return nil, err
	}
	if s.clientHash, err = str(v, "orderHash", true); err != nil {
		return nil, err
	}
	if _, err := chain.ParseHash("orderHash", s.clientHash); err != nil {
		return nil, err
	}
	if err := parseKindParams(v, &s.kind); err != nil {
		return nil, err
	}
	return s, nil
}

func parseOrder(o *fastjson.Value, s *submission) error {
	if k := unknownField(o.GetObject(), orderFields); k != "" {
		return badRequest("order.%s is not a field of the signed v7.1 Order", truncate(k))
	}
	ord := &s.order
	var err error
	if ord.Salt, err = uintField(o, "salt", "order.salt", chain.ParseUint256); err != nil {
		return err
	}
	for _, f := range [...]struct {
		name, field string
		dst         *common.Address
	}{
		{"maker", "order.maker", &ord.Maker}, {"receiver", "order.receiver", &ord.Receiver},
		{"tokenIn", "order.tokenIn", &ord.TokenIn}, {"tokenOut", "order.tokenOut", &ord.TokenOut},
		{"referrer", "order.referrer", &ord.Referrer},
	} {
		if *f.dst, err = addressField(o, f.name, f.field); err != nil {
			return err
		}
	}
	if ord.AmountIn, err = uintField(o, "amountIn", "order.amountIn", chain.ParseDecimalUint256); err != nil {
		return err
	}
	if ord.TriggerPrice, err = uintField(o, "triggerPrice", "order.triggerPrice", chain.ParseDecimalUint256); err != nil {
		return err
	}
	if ord.MakerTraits, err = uintField(o, "makerTraits", "order.makerTraits", chain.ParseDecimalUint256); err != nil {
		return err
	}
	if tv := o.Get("triggerAmountOut"); tv != nil && tv.Type() != fastjson.TypeNull {
		tao, err := uintField(o, "triggerAmountOut", "order.triggerAmountOut", chain.ParseDecimalUint256)
		if err != nil {
			return err
		}
		s.suppliedTAO = &tao
	}
	ppm, err := intField(o, "order.referralFeePpm", "referralFeePpm", true)
	if err != nil {
		return err
	}
	if *ppm > chain.PpmOne {
		return orderengine.Errorf(orderengine.CodeInvalidOrder, "order.referralFeePpm %d exceeds %d", *ppm, chain.PpmOne)
	}
	ord.ReferralFeePpm = uint32(*ppm)
	return nil
}

func parseKindParams(v *fastjson.Value, k *chain.KindParams) error {
	for _, f := range []struct {
		name string
		dst  **uint64
	}{{"intervalSeconds", &k.IntervalSeconds}, {"totalExecutions", &k.TotalExecutions}} {
		sv, err := view(v, f.name, false)
		if err != nil {
			return err
		}
		if !present(v, f.name) {
			continue
		}
		u, err := chain.ParseDecimalUint256(f.name, sv)
		if err != nil {
			return err
		}
		if !u.IsUint64() {
			return orderengine.Errorf(orderengine.CodeInvalidTraits, "%s %s is out of range", f.name, sv)
		}
		n := u.Uint64()
		*f.dst = &n
	}
	if sv, err := view(v, "totalAmountIn", false); err != nil {
		return err
	} else if present(v, "totalAmountIn") {
		u, err := chain.ParseDecimalUint256("totalAmountIn", sv)
		if err != nil {
			return err
		}
		k.TotalAmountIn = &u
	}
	var err error
	if k.FlexibilityPpm, err = intField(v, "flexibilityPpm", "flexibilityPpm", false); err != nil {
		return err
	}
	if k.TrailPpm, err = intField(v, "trailPpm", "trailPpm", false); err != nil {
		return err
	}
	if b := v.Get("shortCircuit"); b != nil && b.Type() != fastjson.TypeNull {
		bv, err := b.Bool()
		if err != nil {
			return badRequest("shortCircuit must be a boolean")
		}
		k.ShortCircuit = &bv
	}
	if dk := v.Get("designatedKeeper"); dk != nil && dk.Type() != fastjson.TypeNull {
		a, err := addressField(v, "designatedKeeper", "designatedKeeper")
		if err != nil {
			return err
		}
		k.DesignatedKeeper = &a
	}
	return nil
}

func present(v *fastjson.Value, name string) bool {
	f := v.Get(name)
	return f != nil && f.Type() != fastjson.TypeNull
}

// str returns the string field name of v; absent is "" (an error when
// required), another type is an error.
func str(v *fastjson.Value, name string, required bool) (string, error) {
	s, err := view(v, name, required)
	return strings.Clone(s), err
}

// view is str without the copy: the string is the parser's memory, valid
// until the parser parses again, for a field decoded on the spot (an
// error message that quotes it copies it).
func view(v *fastjson.Value, name string, required bool) (string, error) {
	f := v.Get(name)
	if f == nil || f.Type() == fastjson.TypeNull {
		if required {
			return "", badRequest("%s is required", name)
		}
		return "", nil
	}
	b, err := f.StringBytes()
	if err != nil {
		return "", badRequest("%s must be a string", name)
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// uintField parses the string field name of o; field is its name in
// messages (order.name).
func uintField(o *fastjson.Value, name, field string, parse func(string, string) (uint256.Int, error)) (uint256.Int, error) {
	s, err := view(o, name, true)
	if err != nil {
		return uint256.Int{}, badRequest("order.%s", err.(*orderengine.Error).Message)
	}
	return parse(field, s)
}

// addressField parses the address field name of o; field is its name in
// messages (order.name, or designatedKeeper).
func addressField(o *fastjson.Value, name, field string) (common.Address, error) {
	s, err := view(o, name, true)
	if err != nil {
		return common.Address{}, badRequest("%s", prefixed(field, err))
	}
	a, err := chain.ParseAddress(field, s)
	if err != nil {
		e := orderengine.AsError(err)
		return a, orderengine.Errorf(orderengine.CodeInvalidOrder, "%s", e.Message)
	}
	return a, nil
}

func prefixed(field string, err error) string {
	msg := orderengine.AsError(err).Message
	if field[0] == 'o' {
		return "order." + msg
	}
	return msg
}

// intField reads an integer field (0..2^53); absent is nil unless required.
func intField(v *fastjson.Value, field, name string, required bool) (*uint64, error) {
	f := v.Get(name)
	if f == nil || f.Type() == fastjson.TypeNull {
		if required {
			return nil, badRequest("%s is required", field)
		}
		return nil, nil
	}
	if f.Type() != fastjson.TypeNumber {
		return nil, badRequest("%s must be an integer", field)
	}
	n, err := f.Uint64()
	if err != nil {
		return nil, badRequest("%s must be a non-negative integer", field)
	}
	return &n, nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
