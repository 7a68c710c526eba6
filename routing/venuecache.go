package routing

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts/bindings/multicall"
)

// ChainReader is what the venue cache and the verifier need from a node;
// ethclient.Client and the simulated backend's client implement it.
type ChainReader interface {
	ethereum.ContractCaller
	ethereum.LogFilterer
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
}

// PoolRef names one venue to load: its address and family.
type PoolRef struct {
	Address common.Address
	Family  string
}

// maxFollowGap is the largest block range Advance fetches logs for; after a
// longer pause one Multicall reload is cheaper than the logs.
const maxFollowGap = 1000

// syncTopic is the topic of `event Sync(uint256 reserve0, uint256 reserve1)`.
func syncTopic() common.Hash { return crypto.Keccak256Hash([]byte("Sync(uint256,uint256)")) }

// VenueCache holds the state of every pool as an immutable Snapshot. Load
// reads all pools with one Multicall eth_call pinned to one block; Advance
// then applies the pools' Sync events block by block. Readers call
// Snapshot, which never blocks.
type VenueCache struct {
	client    ChainReader
	multicall common.Address
	pools     []PoolRef
	families  map[string]Family

	snap  atomic.Pointer[Snapshot]
	mu    sync.Mutex  // serialises Load and Advance
	hash  common.Hash // hash of the snapshot's block, to notice reorgs
	loads int         // full loads so far (tests observe reorg reloads)
}

// NewVenueCache returns an empty cache for pools. A zero multicall address
// loads pools with one eth_call each (all pinned to the same block).
func NewVenueCache(client ChainReader, multicallAddr common.Address, pools []PoolRef, families []Family) (*VenueCache, error) {
	v := &VenueCache{client: client, multicall: multicallAddr, pools: pools, families: map[string]Family{}}
	for _, f := range families {
		v.families[f.Name()] = f
	}
	for _, p := range pools {
		if _, ok := v.families[p.Family]; !ok {
			return nil, fmt.Errorf("routing: pool %s has unknown family %q", p.Address.Hex(), p.Family)
		}
	}
	v.snap.Store(NewSnapshot(0, nil))
	return v, nil
}

// Snapshot is the current state; block 0 until the first Load.
func (v *VenueCache) Snapshot() *Snapshot { return v.snap.Load() }

// Load reads every pool's state at block (nil = the latest block) with one
// Multicall eth_call and replaces the snapshot.
func (v *VenueCache) Load(ctx context.Context, block *big.Int) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.loadLocked(ctx, block)
}

func (v *VenueCache) loadLocked(ctx context.Context, block *big.Int) error {
	head, err := v.client.HeaderByNumber(ctx, block)
	if err != nil {
		return fmt.Errorf("routing: header: %w", err)
	}
	number := head.Number
	rets, err := v.readStates(ctx, number)
	if err != nil {
		return err
	}
	pools := make([]Pool, 0, len(v.pools))
	for i, ref := range v.pools {
		if rets[i] == nil {
			continue // the read failed: the pool is left out until the next load
		}
		p, err := v.families[ref.Family].Decode(ref.Address, rets[i])
		if err != nil {
			return err
		}
		pools = append(pools, p)
	}
	v.snap.Store(NewSnapshot(number.Uint64(), pools))
	v.hash = head.Hash()
	v.loads++
	return nil
}

// readStates returns each pool's state read at block (nil where it failed).
func (v *VenueCache) readStates(ctx context.Context, block *big.Int) ([][]byte, error) {
	rets := make([][]byte, len(v.pools))
	if v.multicall == (common.Address{}) {
		for i, ref := range v.pools {
			to := ref.Address
			ret, err := v.client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: v.families[ref.Family].StateCall()}, block)
			if err == nil {
				rets[i] = ret
			}
		}
		return rets, nil
	}
	mc := multicall.NewMulticall()
	calls := make([]multicall.MulticallStaticCall, len(v.pools))
	for i, ref := range v.pools {
		calls[i] = multicall.MulticallStaticCall{Target: ref.Address, CallData: v.families[ref.Family].StateCall()}
	}
	to := v.multicall
	raw, err := v.client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: mc.PackAggregate(calls)}, block)
	if err != nil {
		return nil, fmt.Errorf("routing: multicall: %w", err)
	}
	out, err := mc.UnpackAggregate(raw)
	if err != nil {
		return nil, fmt.Errorf("routing: multicall result: %w", err)
	}
	if len(out.Results) != len(v.pools) || out.BlockNumber.Cmp(block) != 0 {
		return nil, fmt.Errorf("routing: multicall answered %d results at block %s for %d pools at %s",
			len(out.Results), out.BlockNumber, len(v.pools), block)
	}
	for i, r := range out.Results {
		if r.Success {
			rets[i] = r.ReturnData
		}
	}
	return rets, nil
}

// Apply applies the Sync events of one block. An update for a block at or
// below the snapshot's is stale and ignored (false); otherwise every Sync
// of a known pool replaces its reserves (the last one of the block wins)
// and the snapshot moves to block.
func (v *VenueCache) Apply(block uint64, logs []types.Log) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.applyLocked(block, logs)
}

func (v *VenueCache) applyLocked(block uint64, logs []types.Log) bool {
	cur := v.snap.Load()
	if block <= cur.Block() {
		return false
	}
	topic := syncTopic()
	var updates []Reserves
	for _, l := range logs {
		if l.Removed || len(l.Topics) == 0 || l.Topics[0] != topic || len(l.Data) != 64 || l.BlockNumber != block {
			continue
		}
		var r0, r1 uint256.Int
		r0.SetBytes32(l.Data[:32])
		r1.SetBytes32(l.Data[32:])
		updates = append(updates, Reserves{Pool: l.Address, Reserve0: &r0, Reserve1: &r1})
	}
	v.snap.Store(cur.WithReserves(block, updates))
	return true
}

// Advance brings the snapshot to the chain's latest block: it fetches the
// pools' Sync logs after the snapshot's block and applies them block by
// block (blocks without a Sync still advance the snapshot's block). When
// the snapshot's block is no longer canonical (a reorg) it reloads
// everything with Load instead.
func (v *VenueCache) Advance(ctx context.Context) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	cur := v.snap.Load().Block()
	if cur == 0 {
		return v.loadLocked(ctx, nil)
	}
	at, err := v.client.HeaderByNumber(ctx, new(big.Int).SetUint64(cur))
	if err != nil {
		return fmt.Errorf("routing: header %d: %w", cur, err)
	}
	if at.Hash() != v.hash {
		return v.loadLocked(ctx, nil)
	}
	head, err := v.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return fmt.Errorf("routing: head: %w", err)
	}
	if head.Number.Uint64() <= cur {
		return nil
	}
	if head.Number.Uint64()-cur > maxFollowGap {
		return v.loadLocked(ctx, head.Number)
	}
	addrs := make([]common.Address, len(v.pools))
	for i, p := range v.pools {
		addrs[i] = p.Address
	}
	logs, err := v.client.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(cur + 1), ToBlock: head.Number,
		Addresses: addrs, Topics: [][]common.Hash{{syncTopic()}},
	})
	if err != nil {
		return fmt.Errorf("routing: sync logs: %w", err)
	}
	sort.SliceStable(logs, func(i, j int) bool {
		if logs[i].BlockNumber != logs[j].BlockNumber {
			return logs[i].BlockNumber < logs[j].BlockNumber
		}
		return logs[i].Index < logs[j].Index
	})
	for i := 0; i < len(logs); {
		j := i
		for j < len(logs) && logs[j].BlockNumber == logs[i].BlockNumber {
			j++
		}
		v.applyLocked(logs[i].BlockNumber, logs[i:j])
		i = j
	}
	v.applyLocked(head.Number.Uint64(), nil)
	v.hash = head.Hash()
	return nil
}
