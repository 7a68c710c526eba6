package routing

import (
	"errors"
	"math/big"
	"math/rand"
	"testing"

	"github.com/holiman/uint256"
)

// cpmmReference is the protocol.md formula in math/big.
func cpmmReference(in, rIn, rOut *big.Int, fee int64) *big.Int {
	withFee := new(big.Int).Mul(in, big.NewInt(1_000_000-fee))
	num := new(big.Int).Mul(withFee, rOut)
	den := new(big.Int).Mul(rIn, big.NewInt(1_000_000))
	den.Add(den, withFee)
	return num.Quo(num, den)
}

func TestCPMMMatchesFormula(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 5000; i++ {
		r0 := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(110))))
		r1 := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(110))))
		in := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(110))))
		if r0.Sign() == 0 || r1.Sign() == 0 || in.Sign() == 0 {
			continue
		}
		fee := []int64{3000, 500}[i%2]
		u0, _ := uint256.FromBig(r0)
		u1, _ := uint256.FromBig(r1)
		uin, _ := uint256.FromBig(in)
		p := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), u0, u1, uint64(fee))
		got, err := p.AmountOut(tokenAddr(0), uin)
		if err != nil {
			t.Fatalf("AmountOut: %v", err)
		}
		if want := cpmmReference(in, r0, r1, fee); got.ToBig().Cmp(want) != 0 {
			t.Fatalf("in %s r0 %s r1 %s: got %s want %s", in, r0, r1, got.Dec(), want)
		}
		got, _ = p.AmountOut(tokenAddr(1), uin)
		if want := cpmmReference(in, r1, r0, fee); got.ToBig().Cmp(want) != 0 {
			t.Fatalf("reverse: got %s want %s", got.Dec(), want)
		}
	}
}

func TestCPMMRevertsLikeContract(t *testing.T) {
	big1 := new(uint256.Int).Lsh(uint256.NewInt(1), 200)
	p := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), big1, big1, 3000)
	if _, err := p.AmountOut(tokenAddr(0), big1); !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow not reported: %v", err)
	}
	if out, err := p.AmountOut(tokenAddr(0), new(uint256.Int)); err != nil || !out.IsZero() {
		t.Fatalf("zero amount must answer 0 like getAmountOut: %v %v", out, err)
	}
	if _, err := p.AmountOut(tokenAddr(5), uint256.NewInt(1)); !errors.Is(err, ErrWrongToken) {
		t.Fatalf("wrong token: %v", err)
	}
	empty := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), new(uint256.Int), uint256.NewInt(5), 3000)
	if out, err := empty.AmountOut(tokenAddr(0), uint256.NewInt(1)); err != nil || !out.IsZero() {
		t.Fatalf("empty pool must answer 0: %v %v", out, err)
	}
}

func TestCPMMSpotAndWithReserves(t *testing.T) {
	p := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), uint256.NewInt(1000), uint256.NewInt(4000), 500)
	if got := QuoteAmount(uint256.NewInt(10), p.SpotX128(tokenAddr(0))); got.Uint64() != 40 {
		t.Fatalf("spot 0→1 of 10 = %d, want 40", got.Uint64())
	}
	q := p.WithReserves(uint256.NewInt(4000), uint256.NewInt(1000))
	if got := QuoteAmount(uint256.NewInt(40), q.SpotX128(tokenAddr(0))); got.Uint64() != 10 {
		t.Fatalf("updated spot = %d, want 10", got.Uint64())
	}
	if r0, _ := p.Reserves(); r0.Uint64() != 1000 {
		t.Fatal("WithReserves mutated the original pool")
	}
}
