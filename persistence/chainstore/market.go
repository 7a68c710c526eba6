package chainstore

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/orderengine/orderengine/persistence"
)

// Market data derived from the router's logs: recent swaps and fills, hourly
// USD volume per pair, and engine-wide chain counters. All of it is written
// by the indexer's market sink through the block's Batch, so it is
// undone with the block on a reorg.
//
// Key layout (see persistence/keys.go):
//
//	s/<block BE8><logIndex BE4>              SwapRecord, JSON
//	v/<hour BE8><tokenIn 20><tokenOut 20>    USD volume, 8 decimals, big-endian magnitude
//	c/stats                                  Stats, JSON
//
// hour is unix seconds / 3600 of the block time.

const chainStatsKey = persistence.PrefixChain + "stats"

// SwapRecord is one router swap (Swapped) or order fill (OrderFilled).
type SwapRecord struct {
	// Kind is "swap" or "fill".
	Kind        string `json:"kind"`
	TxHash      string `json:"txHash"`
	BlockNumber uint64 `json:"blockNumber"`
	LogIndex    uint32 `json:"logIndex"`
	Timestamp   int64  `json:"timestamp"`
	// Wallet is the swap's sender or the order's maker; Receiver the
	// output's receiver (swaps and known orders).
	Wallet   string `json:"wallet"`
	Receiver string `json:"receiver,omitempty"`
	// TokenIn and TokenOut are empty for a fill of an order this engine
	// does not know.
	TokenIn     string `json:"tokenIn,omitempty"`
	TokenOut    string `json:"tokenOut,omitempty"`
	AmountIn    string `json:"amountIn"`
	AmountOut   string `json:"amountOut"`
	ProtocolFee string `json:"protocolFee"`
	ReferralFee string `json:"referralFee"`
	KeeperFee   string `json:"keeperFee,omitempty"`
	Keeper      string `json:"keeper,omitempty"`
	Referrer    string `json:"referrer,omitempty"`
	OrderHash   string `json:"orderHash,omitempty"`
	// VolumeUSD is amountIn priced by the oracle at the block, decimal
	// string with 2 decimals ("" when the oracle had no price).
	VolumeUSD string `json:"volumeUsd,omitempty"`
}

// Stats are engine-wide counters kept by the indexer.
type Stats struct {
	Fills      uint64 `json:"fills"`
	Executions uint64 `json:"executions"`
	Swaps      uint64 `json:"swaps"`
	Activated  uint64 `json:"activated"`
	Cancelled  uint64 `json:"cancelled"`
	Nonces     uint64 `json:"noncesInvalidated"`
}

func swapKey(block uint64, index uint32) []byte {
	k := binary.BigEndian.AppendUint64([]byte(persistence.PrefixSwap), block)
	return binary.BigEndian.AppendUint32(k, index)
}

func volumeKey(hour uint64, in, out common.Address) []byte {
	k := binary.BigEndian.AppendUint64([]byte(persistence.PrefixVolume), hour)
	k = append(k, in[:]...)
	return append(k, out[:]...)
}

// PutSwap writes a swap record in the block's batch.
func PutSwap(cb *Batch, r SwapRecord) error {
	v, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("persistence: encode swap: %w", err)
	}
	return cb.setNew(swapKey(r.BlockNumber, r.LogIndex), v)
}

// AddVolume adds usd8 (USD with 8 decimals) to the pair's hour bucket.
func AddVolume(cb *Batch, hour uint64, in, out common.Address, usd8 *big.Int) error {
	k := volumeKey(hour, in, out)
	v, _, err := cb.Get(k)
	if err != nil {
		return err
	}
	sum := new(big.Int).SetBytes(v)
	return cb.Set(k, sum.Add(sum, usd8).Bytes())
}

// UpdateStats applies fn to the counters in the block's batch.
func UpdateStats(cb *Batch, fn func(*Stats)) error {
	var st Stats
	v, ok, err := cb.Get([]byte(chainStatsKey))
	if err != nil {
		return err
	}
	if ok {
		if err := json.Unmarshal(v, &st); err != nil {
			return fmt.Errorf("persistence: decode chain stats: %w", err)
		}
	}
	fn(&st)
	nv, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return cb.Set([]byte(chainStatsKey), nv)
}

// Market reads market data.
type Market struct{ store *persistence.Store }

// NewMarket returns the market data reader of store.
func NewMarket(store *persistence.Store) *Market { return &Market{store: store} }

// Stats returns the chain counters.
func (m *Market) Stats() (Stats, error) {
	var st Stats
	v, ok, err := m.store.Get([]byte(chainStatsKey))
	if err != nil || !ok {
		return st, err
	}
	return st, json.Unmarshal(v, &st)
}

// SwapCursor renders a record's position as a keyset cursor (24 hex digits).
func SwapCursor(r *SwapRecord) string {
	return hex.EncodeToString(swapKey(r.BlockNumber, r.LogIndex)[len(persistence.PrefixSwap):])
}

// Swaps calls fn with swap records newest first, starting after cursor
// ("" = from the newest), until fn returns false. scanMax bounds how many
// records are examined (filters may skip many).
func (m *Market) Swaps(cursor string, scanMax int, fn func(SwapRecord) bool) error {
	upper := persistence.PrefixUpperBound([]byte(persistence.PrefixSwap))
	if cursor != "" {
		pos, err := hex.DecodeString(cursor)
		if err != nil || len(pos) != 12 {
			return fmt.Errorf("persistence: bad swaps cursor")
		}
		upper = append([]byte(persistence.PrefixSwap), pos...)
	}
	it, err := m.store.DB().NewIter(&pebble.IterOptions{LowerBound: []byte(persistence.PrefixSwap), UpperBound: upper})
	if err != nil {
		return fmt.Errorf("persistence: swaps: %w", err)
	}
	defer it.Close()
	n := 0
	for ok := it.Last(); ok && n < scanMax; ok = it.Prev() {
		n++
		v, err := it.ValueAndErr()
		if err != nil {
			return err
		}
		var r SwapRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("persistence: decode swap: %w", err)
		}
		if !fn(r) {
			break
		}
	}
	return it.Error()
}

// PairVolume is a pair's USD volume (8 decimals).
type PairVolume struct {
	TokenIn, TokenOut common.Address
	USD8              *big.Int
}

// Volume sums the hour buckets from fromHour on, per pair.
func (m *Market) Volume(fromHour uint64) ([]PairVolume, error) {
	it, err := m.store.DB().NewIter(&pebble.IterOptions{
		LowerBound: binary.BigEndian.AppendUint64([]byte(persistence.PrefixVolume), fromHour),
		UpperBound: persistence.PrefixUpperBound([]byte(persistence.PrefixVolume)),
	})
	if err != nil {
		return nil, fmt.Errorf("persistence: volume: %w", err)
	}
	defer it.Close()
	idx := map[[40]byte]int{}
	var out []PairVolume
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if len(k) != len(persistence.PrefixVolume)+48 {
			continue
		}
		var pair [40]byte
		copy(pair[:], k[len(persistence.PrefixVolume)+8:])
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, err
		}
		i, seen := idx[pair]
		if !seen {
			i = len(out)
			idx[pair] = i
			out = append(out, PairVolume{TokenIn: common.BytesToAddress(pair[:20]), TokenOut: common.BytesToAddress(pair[20:]), USD8: new(big.Int)})
		}
		out[i].USD8.Add(out[i].USD8, new(big.Int).SetBytes(v))
	}
	return out, it.Error()
}
