package pair

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// State is what a trigger must remember across restarts. The DCA schedule
// needs no row of its own: it is derived from the order record
// (acceptance time, parameters) and the indexer's chain record
// (executions, first and last execution), both durable. A trailing order's
// peak is kept in two kinds of rows under t/ (persistence keys.go):
//
//	key                   value (JSON)
//	t/<orderHash 32>      State of the order: Peak, PeakBlock, Group
//	t/<groupID 8, BE>     State of a peak group: Peak, PeakBlock
//
// An order in a peak group (peaks.go) shares the group's peak, so a new
// high rewrites the group's row, not each order's: the order's row names
// the group, and while that group's row exists its peak is the order's
// (the order's own Peak is then its peak when it joined). An order out of
// a group has Group 0 and its own Peak. The two keys differ in length, so
// neither is a prefix of the other.
type State struct {
	// Peak is the trailing peak (raw tokenOut per whole tokenIn) and the
	// block it was written at.
	Peak      string `json:"peak,omitempty"`
	PeakBlock uint64 `json:"peakBlock,omitempty"`
	// Group is the peak group whose row holds the order's peak (0: none).
	Group uint64 `json:"group,omitempty"`
}

func stateKey(h common.Hash) []byte { return append([]byte("t/"), h[:]...) }

func groupKey(id uint64) []byte { return binary.BigEndian.AppendUint64([]byte("t/"), id) }

// readState reads a row of t/ (found false when absent).
func readState(s *persistence.Store, key []byte) (State, bool, error) {
	var st State
	v, closer, err := s.DB().Get(key)
	if err == pebble.ErrNotFound {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("trigger: load state: %w", err)
	}
	defer closer.Close()
	if err := json.Unmarshal(v, &st); err != nil {
		return st, false, fmt.Errorf("trigger: decode state: %w", err)
	}
	return st, true, nil
}

// peakOf parses a row's peak (nil when the row has none).
func (st State) peakOf() *big.Int {
	p, ok := new(big.Int).SetString(st.Peak, 10)
	if !ok {
		return nil
	}
	return p
}

// loadPeak reads an order's stored trailing peak (nil when none): its
// group's while the group's row exists, else its own.
func loadPeak(s *persistence.Store, h common.Hash) (*big.Int, error) {
	st, ok, err := readState(s, stateKey(h))
	if err != nil || !ok {
		return nil, err
	}
	if st.Group != 0 {
		g, ok, err := readState(s, groupKey(st.Group))
		if err != nil {
			return nil, err
		}
		if ok {
			return g.peakOf(), nil
		}
	}
	return st.peakOf(), nil
}

// stateWrites are the t/ rows an evaluation changed, written in one batch:
// a nil value deletes the row.
type stateWrites struct {
	orders map[common.Hash]*State
	groups map[uint64]*State
}

func (w *stateWrites) order(h common.Hash, st *State) {
	if w.orders == nil {
		w.orders = map[common.Hash]*State{}
	}
	w.orders[h] = st
}

func (w *stateWrites) group(id uint64, st *State) {
	if w.groups == nil {
		w.groups = map[uint64]*State{}
	}
	w.groups[id] = st
}

func (w *stateWrites) len() int { return len(w.orders) + len(w.groups) }

// commit writes the rows in one batch and forgets them.
func (w *stateWrites) commit(s *persistence.Store, opts *pebble.WriteOptions) error {
	if w.len() == 0 {
		return nil
	}
	b := s.DB().NewBatch()
	defer b.Close()
	put := func(key []byte, st *State) error {
		if st == nil {
			return b.Delete(key, nil)
		}
		v, err := json.Marshal(st)
		if err != nil {
			return err
		}
		return b.Set(key, v, nil)
	}
	for h, st := range w.orders {
		if err := put(stateKey(h), st); err != nil {
			return err
		}
	}
	for id, st := range w.groups {
		if err := put(groupKey(id), st); err != nil {
			return err
		}
	}
	if err := s.Commit(b, opts); err != nil {
		return fmt.Errorf("trigger: save peaks: %w", err)
	}
	w.orders, w.groups = nil, nil
	return nil
}
