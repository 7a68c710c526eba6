package orders

import (
	"testing"

	"github.com/valyala/fastjson"
)

// benchBody is a limit order's submit body with checksummed addresses;
// parsing does not check the signature, so its bytes are arbitrary.
const benchBody = `{"orderType":"limit","order":{"salt":"123456789012345678901234567890","maker":"0x5B38Da6a701c568545dCfcB03FcB875f56beddC4","receiver":"0x5B38Da6a701c568545dCfcB03FcB875f56beddC4","tokenIn":"0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2","tokenOut":"0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db","amountIn":"1000000000000000000","triggerPrice":"2000000000000000000000","makerTraits":"0","referrer":"0x0000000000000000000000000000000000000000","referralFeePpm":0},"signature":"0x` +
	`1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111` + `","orderHash":"0x2222222222222222222222222222222222222222222222222222222222222222"}`

// BenchmarkParseSubmission is the submit body's one parse (schema, typed
// fields, EIP-55 checks) with a pooled parser, as Service.Submit does it.
func BenchmarkParseSubmission(b *testing.B) {
	var pp fastjson.ParserPool
	body := []byte(benchBody)
	b.ReportAllocs()
	for b.Loop() {
		p := pp.Get()
		if _, err := parseSubmission(p, body); err != nil {
			b.Fatal(err)
		}
		pp.Put(p)
	}
}
