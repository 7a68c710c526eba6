package pair

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// State is what a trigger must remember across restarts for one order
// (persistence keys.go: t/<orderHash>). The DCA schedule needs no row of its
// own: it is derived from the order record (acceptance time, parameters)
// and the indexer's chain record (executions, first and last execution),
// both durable.
type State struct {
	// Peak is the trailing peak (raw tokenOut per whole tokenIn) and the
	// block it was seen in.
	Peak      string `json:"peak,omitempty"`
	PeakBlock uint64 `json:"peakBlock,omitempty"`
}

func stateKey(h common.Hash) []byte { return append([]byte("t/"), h[:]...) }

// loadPeak reads an order's persisted trailing peak (nil when none).
func loadPeak(s *persistence.Store, h common.Hash) (*big.Int, error) {
	v, closer, err := s.DB().Get(stateKey(h))
	if err == pebble.ErrNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trigger: load state: %w", err)
	}
	defer closer.Close()
	var st State
	if err := json.Unmarshal(v, &st); err != nil {
		return nil, fmt.Errorf("trigger: decode state: %w", err)
	}
	p, ok := new(big.Int).SetString(st.Peak, 10)
	if !ok {
		return nil, nil
	}
	return p, nil
}

// savePeaks writes the changed peaks in one synced batch.
func savePeaks(s *persistence.Store, peaks map[common.Hash]*big.Int, block uint64) error {
	if len(peaks) == 0 {
		return nil
	}
	b := s.DB().NewBatch()
	defer b.Close()
	for h, p := range peaks {
		v, err := json.Marshal(State{Peak: p.String(), PeakBlock: block})
		if err != nil {
			return err
		}
		if err := b.Set(stateKey(h), v, nil); err != nil {
			return err
		}
	}
	if err := s.Commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("trigger: save peaks: %w", err)
	}
	return nil
}

// dropState deletes the state of finished orders.
func dropState(s *persistence.Store, hashes []common.Hash) error {
	if len(hashes) == 0 {
		return nil
	}
	b := s.DB().NewBatch()
	defer b.Close()
	for _, h := range hashes {
		if err := b.Delete(stateKey(h), nil); err != nil {
			return err
		}
	}
	return s.Commit(b, pebble.Sync)
}
