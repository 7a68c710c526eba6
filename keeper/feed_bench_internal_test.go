package keeper

import (
	"context"
	"encoding/binary"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/orders"
)

// BenchmarkFeedBlockSteady is one recorded block of a feed whose
// executable set of 100,000 orders (of 10,000 makers) did not change, the
// funding of 4,096 (tokenIn, maker) keys read and unchanged: what a node
// with a keeper stream open spends per block on a quiet market.
func BenchmarkFeedBlockSteady(b *testing.B) {
	funded := orders.Funding{Balance: *uint256.NewInt(1 << 62), Allowance: *uint256.NewInt(1 << 62)}
	f := NewFeed(FeedOptions{Config: config.StreamsConfig{KeeperResumeBlocks: 3},
		Funding: func(_ context.Context, _ common.Hash, keys [][2]common.Address) (map[[2]common.Address]orders.Funding, error) {
			out := make(map[[2]common.Address]orders.Funding, len(keys))
			for _, k := range keys {
				out[k] = funded
			}
			return out, nil
		}})
	var seed []pair.ExecutableChange
	for i := range 100_000 {
		var h common.Hash
		binary.BigEndian.PutUint64(h[:], uint64(i)*0x9e3779b97f4a7c15)
		var maker common.Address
		binary.BigEndian.PutUint64(maker[:], uint64(i%10_000))
		seed = append(seed, pair.ExecutableChange{Executable: pair.Executable{Hash: h, Pair: "a-b", Maker: maker, FillIn: big.NewInt(int64(i + 1))}})
	}
	f.follow(seed)
	for _, c := range seed {
		f.put(nil, &feedEntry{x: c.Executable})
	}
	f.all = false
	clear(f.touched)
	ctx := context.Background()
	f.apply(ctx, ref(9, 'a')) // the first readings
	b.ResetTimer()
	for i := range b.N {
		f.apply(ctx, ref(uint64(10+i), 'a'))
	}
}
