package routing

import (
	"math/big"
	"math/rand"
	"testing"

	"github.com/holiman/uint256"
)

func TestMulX128MatchesBigInt(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for i := 0; i < 20000; i++ {
		a := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(rng.Intn(257))))
		b := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(rng.Intn(257))))
		want := new(big.Int).Mul(a, b)
		want.Rsh(want, 128)
		if want.Cmp(max) > 0 {
			want = max
		}
		ua, _ := uint256.FromBig(a)
		ub, _ := uint256.FromBig(b)
		if got := mulX128(ua, ub); got.ToBig().Cmp(want) != 0 {
			t.Fatalf("%s × %s >> 128: got %s want %s", a, b, got.Dec(), want)
		}
	}
}
