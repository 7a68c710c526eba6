package market_test

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/market"
)

// The pricer reads a token's decimals() from the chain when the
// configuration does not give them: every deployed token answers what it
// was deployed with (6, 8 and 18 among them), and an address without code
// is an error, not zero decimals.
func TestOraclePricerReadsDecimalsFromTheToken(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	p := market.NewOraclePricer(e.Client.(market.HashCaller), e.D.Oracle, nil)
	head := e.Head().Hash()
	seen := map[uint8]bool{}
	for _, tk := range e.D.Tokens {
		got, err := p.Decimals(e.Ctx, head, tk.Address)
		if err != nil || got != tk.Decimals {
			t.Fatalf("%s decimals = %d, %v; want %d", tk.Symbol, got, err, tk.Decimals)
		}
		seen[got] = true
	}
	if len(seen) < 2 {
		t.Fatalf("the deployment has tokens of %d distinct decimals; the test needs several", len(seen))
	}
	nobody := common.HexToAddress("0x00000000000000000000000000000000000b0b0b")
	if d, err := p.Decimals(e.Ctx, head, nobody); err == nil {
		t.Fatalf("decimals of an address without code = %d, want an error", d)
	}
}
