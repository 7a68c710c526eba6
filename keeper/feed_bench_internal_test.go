package keeper

import (
	"context"
	"encoding/binary"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/config"
)

// BenchmarkFeedBlockSteady is one evaluated block of a feed that follows
// an executable set of 100,000 orders that did not change.
func BenchmarkFeedBlockSteady(b *testing.B) {
	f := NewFeed(FeedOptions{Config: config.StreamsConfig{KeeperResumeBlocks: 3}})
	for i := range 100_000 {
		var h common.Hash
		binary.BigEndian.PutUint64(h[:], uint64(i)*0x9e3779b97f4a7c15)
		x := pair.Executable{Hash: h, Pair: "a-b", FillIn: big.NewInt(int64(i + 1))}
		f.cand.ReplaceOrInsert(h, x)
		f.byHash[h] = &feedEntry{x: x}
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		f.apply(ctx, ref(uint64(10+i), 'a'))
	}
}
