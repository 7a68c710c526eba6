package chainsync

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// synthChain is a Backend serving a synthetic chain whose every block holds
// fillsPerBlock OrderFilled logs of distinct orders.
type synthChain struct {
	router        common.Address
	fillsPerBlock int

	mu      sync.Mutex
	headers []*types.Header
	logs    map[common.Hash][]types.Log
}

func newSynthChain(router common.Address, fillsPerBlock int) *synthChain {
	g := &types.Header{Number: big.NewInt(0), Time: 1_700_000_000, Difficulty: big.NewInt(0)}
	return &synthChain{router: router, fillsPerBlock: fillsPerBlock, headers: []*types.Header{g}, logs: map[common.Hash][]types.Log{}}
}

// mine appends one block of fills.
func (c *synthChain) mine() { c.mineTagged(0) }

// replaceTip replaces the head block with a sibling (another hash, other
// orders): a reorg to a chain of the same length.
func (c *synthChain) replaceTip(tag int64) {
	c.mu.Lock()
	c.headers = c.headers[:len(c.headers)-1]
	c.mu.Unlock()
	c.mineTagged(tag)
}

func (c *synthChain) mineTagged(tag int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	parent := c.headers[len(c.headers)-1]
	n := uint64(len(c.headers))
	h := &types.Header{Number: new(big.Int).SetUint64(n), ParentHash: parent.Hash(), Time: parent.Time + 1, Difficulty: big.NewInt(tag)}
	hash := h.Hash()
	ev := servicerouter.NewServiceRouter().GetABI().Events["OrderFilled"]
	logs := make([]types.Log, c.fillsPerBlock)
	one := big.NewInt(1_000_000)
	for i := range logs {
		order := crypto.Keccak256Hash([]byte(fmt.Sprintf("order %d %d %d", n, i, tag)))
		data, err := ev.Inputs.NonIndexed().Pack(one, one, big.NewInt(10), big.NewInt(3), big.NewInt(5), one, uint32(1))
		if err != nil {
			panic(err)
		}
		tx := crypto.Keccak256Hash(order[:])
		logs[i] = types.Log{
			Address: c.router, Topics: []common.Hash{ev.ID, order, common.BytesToHash([]byte{1}), common.BytesToHash([]byte{2})},
			Data: data, BlockNumber: n, BlockHash: hash, TxHash: tx, Index: uint(i),
		}
	}
	c.headers = append(c.headers, h)
	c.logs[hash] = logs
}

func (c *synthChain) BlockNumber(context.Context) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return uint64(len(c.headers) - 1), nil
}

func (c *synthChain) HeaderByNumber(_ context.Context, n *big.Int) (*types.Header, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n == nil {
		return c.headers[len(c.headers)-1], nil
	}
	if n.Uint64() >= uint64(len(c.headers)) {
		return nil, ethereum.NotFound
	}
	return c.headers[n.Uint64()], nil
}

func (c *synthChain) HeaderByHash(context.Context, common.Hash) (*types.Header, error) {
	return nil, ethereum.NotFound
}

func (c *synthChain) FilterLogs(_ context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs[*q.BlockHash], nil
}

// BenchmarkIndex1000FillsPerBlock measures applying one block of 1,000
// fills (decode, chain state, fill records, applied-log keys, undo record,
// cursor, one synced commit). The target is lag under one block interval:
// ms/block must stay well below the 1 s dev block interval.
func BenchmarkIndex1000FillsPerBlock(b *testing.B) {
	router := common.HexToAddress("0x1000000000000000000000000000000000000001")
	c := newSynthChain(router, 1000)
	s := chainsynctest.OpenStore(b, b.TempDir())
	defer s.Close()
	ix, err := New(c, s, nil, Options{Router: router, StartBlock: 1})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		c.mine()
	}
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	if err := ix.Sync(ctx); err != nil {
		b.Fatal(err)
	}
	el := time.Since(start)
	if ix.Status().Cursor != uint64(b.N) {
		b.Fatalf("cursor %d, want %d", ix.Status().Cursor, b.N)
	}
	b.ReportMetric(float64(el.Milliseconds())/float64(b.N), "ms/block")
	b.ReportMetric(float64(b.N*1000)/el.Seconds(), "fills/s")
}
