package routing

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

const venueABI = `[
 {"type":"function","name":"approve","inputs":[{"name":"spender","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[{"type":"bool"}]},
 {"type":"function","name":"swap","inputs":[{"name":"tokenIn","type":"address"},{"name":"amountIn","type":"uint256"},{"name":"minAmountOut","type":"uint256"},{"name":"to","type":"address"}],"outputs":[{"type":"uint256"}]}
]`

func TestBuildCallsMatchesABI(t *testing.T) {
	parsed, err := abi.JSON(strings.NewReader(venueABI))
	if err != nil {
		t.Fatal(err)
	}
	executor := common.HexToAddress("0xE0E0000000000000000000000000000000000001")
	r := &Route{Paths: []Path{
		{Hops: []Hop{
			{Pool: poolAddr(1), TokenIn: tokenAddr(0), TokenOut: tokenAddr(5), AmountIn: uint256.NewInt(700)},
			{Pool: poolAddr(2), TokenIn: tokenAddr(5), TokenOut: tokenAddr(1), AmountIn: uint256.NewInt(12)},
		}},
		{Hops: []Hop{{Pool: poolAddr(3), TokenIn: tokenAddr(0), TokenOut: tokenAddr(1), AmountIn: uint256.NewInt(300)}}},
	}}
	calls := BuildCalls(r, executor)
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	want := []struct {
		target common.Address
		method string
		args   []any
	}{
		{tokenAddr(0), "approve", []any{poolAddr(1), big.NewInt(700)}},
		{poolAddr(1), "swap", []any{tokenAddr(0), big.NewInt(700), big.NewInt(0), executor}},
		{tokenAddr(5), "approve", []any{poolAddr(2), maxUint}},
		{poolAddr(2), "swap", []any{tokenAddr(5), maxUint, big.NewInt(0), executor}},
		{tokenAddr(0), "approve", []any{poolAddr(3), big.NewInt(300)}},
		{poolAddr(3), "swap", []any{tokenAddr(0), big.NewInt(300), big.NewInt(0), executor}},
	}
	if len(calls) != len(want) {
		t.Fatalf("%d calls, want %d", len(calls), len(want))
	}
	for i, w := range want {
		data, err := parsed.Pack(w.method, w.args...)
		if err != nil {
			t.Fatal(err)
		}
		if calls[i].Target != w.target || !bytes.Equal(calls[i].Data, data) {
			t.Fatalf("call %d: %s %x, want %s %x", i, calls[i].Target.Hex(), calls[i].Data, w.target.Hex(), data)
		}
	}
}
