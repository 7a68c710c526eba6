package orders

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The diagnostics of an open order (GET /v1/orders/{hash}): why it waits.
// They are computed as of the last block the pairs evaluated, from what the
// pairs decide on (the oracle price at that block, the trailing peak, the
// DCA schedule from the order and chain records) and the maker's balance
// and allowance read at that block's hash, and cached for that block: a
// second read of the order in the same block costs a map lookup.

// Diagnostics says what an open order waits for.
type Diagnostics struct {
	Block DiagBlock `json:"block"`
	// Executable: keepers are shown the order at Block (its condition met
	// and, as far as it could be read, its maker covers the next fill).
	Executable bool `json:"executable"`
	// WaitingFor names what the order waits for, most decisive first.
	WaitingFor       []string           `json:"waitingFor"`
	Condition        DiagCondition      `json:"condition"`
	Funding          *DiagFunding       `json:"funding"`
	Deadline         *DiagDeadline      `json:"deadline"`
	DesignatedKeeper *DiagKeeper        `json:"designatedKeeper"`
	LastFailedFill   *DiagFailedAttempt `json:"lastFailedFill"`
}

// What an open order may wait for (Diagnostics.WaitingFor).
const (
	WaitDeadlinePassed   = "deadline_passed"
	WaitOraclePrice      = "oracle_price"
	WaitTrigger          = "trigger"
	WaitDCALeg           = "dca_leg"
	WaitBalance          = "balance"
	WaitAllowance        = "allowance"
	WaitDesignatedKeeper = "designated_keeper"
	WaitKeeper           = "keeper"
)

// DiagBlock is the block the diagnostics are as of.
type DiagBlock struct {
	Number uint64    `json:"number"`
	Hash   string    `json:"hash"`
	Time   time.Time `json:"time"`
}

// DiagCondition is the order's condition for execution and how far the
// market is from it.
type DiagCondition struct {
	// Kind: price_at_or_above (limit, take_profit), price_at_or_below
	// (stop_loss), trailing, dca_schedule.
	Kind string `json:"kind"`
	Met  bool   `json:"met"`
	// OraclePrice is one whole tokenIn in raw tokenOut at the block (null:
	// no fresh answer).
	OraclePrice  *string `json:"oraclePrice"`
	TriggerPrice *string `json:"triggerPrice,omitempty"`
	// DistancePpm is how far the oracle price must move to meet the
	// condition, in ppm of the oracle price (0 when met; null without a
	// price).
	DistancePpm *uint64 `json:"distancePpm"`
	// Trailing.
	TrailPpm  *uint32 `json:"trailPpm,omitempty"`
	Peak      *string `json:"peak,omitempty"`
	FirePrice *string `json:"firePrice,omitempty"`
	// DCA.
	NextLegDueAt    *time.Time `json:"nextLegDueAt,omitempty"`
	LegsExecuted    *uint32    `json:"legsExecuted,omitempty"`
	TotalLegs       *uint16    `json:"totalLegs,omitempty"`
	PriceGated      *bool      `json:"priceGated,omitempty"`
	NextLegAmountIn *string    `json:"nextLegAmountIn,omitempty"`
}

// DiagFunding is the maker's balance and router allowance at the block
// against the next fill's amount.
type DiagFunding struct {
	Balance   string `json:"balance"`
	Allowance string `json:"allowance"`
	Needed    string `json:"needed"`
	Covered   bool   `json:"covered"`
}

// DiagDeadline is the order's deadline against the block's time.
type DiagDeadline struct {
	At time.Time `json:"at"`
	// SecondsLeft is the deadline minus the block time (negative once
	// passed: the next evaluated block expires the order).
	SecondsLeft int64 `json:"secondsLeft"`
}

// DiagKeeper is the keeper an order is reserved for.
type DiagKeeper struct {
	// AllowedSender is makerTraits.allowedSender: the low 80 bits of the
	// only sender the router accepts, 0x-hex.
	AllowedSender string `json:"allowedSender"`
	// Address is the designatedKeeper the order was submitted with (null:
	// only the low bits are known).
	Address *string `json:"address"`
}

// DiagFailedAttempt is the last fillOrder of the order that reverted on
// chain.
type DiagFailedAttempt struct {
	TxHash      string `json:"txHash"`
	BlockNumber uint64 `json:"blockNumber"`
	Keeper      string `json:"keeper"`
	// RevertName is the router's custom error (null when the replay found
	// none).
	RevertName *string   `json:"revertName"`
	At         time.Time `json:"at"`
}

// diagCache holds the diagnostics rendered at one block, and the pairs'
// oracle prices there.
type diagCache struct {
	mu     sync.Mutex
	block  uint64
	orders map[common.Hash][]byte
	prices map[string]*big.Int
}

// diagCacheMax bounds the diagnostics cached for one block.
const diagCacheMax = 65536

// atLocked empties the cache when the block changed (or it is full).
func (c *diagCache) atLocked(block uint64) {
	if c.block != block || c.orders == nil || len(c.orders) >= diagCacheMax {
		c.block, c.orders, c.prices = block, map[common.Hash][]byte{}, map[string]*big.Int{}
	}
}

// diagnostics returns rec's diagnostics as JSON, nil when there are none
// (a closed order, no evaluated block, no pairs).
func (s *Service) diagnostics(ctx context.Context, rec *orderstore.Record) []byte {
	if !rec.Status.Open() || s.d.Evaluated == nil {
		return nil
	}
	ref, ok := s.d.Evaluated()
	if !ok {
		return nil
	}
	s.diag.mu.Lock()
	s.diag.atLocked(ref.Number)
	out, hit := s.diag.orders[rec.Hash]
	s.diag.mu.Unlock()
	if hit {
		return out
	}
	d := s.diagnose(ctx, rec, ref)
	out, err := json.Marshal(d)
	if err != nil {
		s.log.Warn("diagnostics: encode", "order", rec.Hash, "err", err)
		return nil
	}
	s.diag.mu.Lock()
	if s.diag.block == ref.Number {
		s.diag.orders[rec.Hash] = out
	}
	s.diag.mu.Unlock()
	return out
}

// priceAt is the pair's oracle price at ref, read once per block.
func (s *Service) priceAt(ctx context.Context, ref pair.BlockRef, key string) *big.Int {
	s.diag.mu.Lock()
	p, ok := s.diag.prices[key]
	s.diag.mu.Unlock()
	if ok {
		return p
	}
	p = s.d.Pairs.PriceAt(ctx, ref, key)
	s.diag.mu.Lock()
	if s.diag.block == ref.Number {
		s.diag.prices[key] = p
	}
	s.diag.mu.Unlock()
	return p
}

// diagnose computes rec's diagnostics at ref.
func (s *Service) diagnose(ctx context.Context, rec *orderstore.Record, ref pair.BlockRef) *Diagnostics {
	tr := rec.Traits()
	d := &Diagnostics{Block: DiagBlock{Number: ref.Number, Hash: ref.Hash.Hex(), Time: time.Unix(int64(ref.Time), 0).UTC()}, WaitingFor: []string{}}
	key := pair.PairKey(rec.Order.TokenIn, rec.Order.TokenOut)
	d.Executable = s.listed(key, rec.Hash)
	price := s.priceAt(ctx, ref, key)
	co, _, err := s.chain.Order(rec.Hash)
	if err != nil {
		s.log.Warn("diagnostics: chain record", "order", rec.Hash, "err", err)
	}
	needed := s.condition(d, rec, tr, co, price, ref)
	if tr.Deadline != 0 {
		d.Deadline = &DiagDeadline{At: time.Unix(int64(tr.Deadline), 0).UTC(), SecondsLeft: int64(tr.Deadline) - int64(ref.Time)}
		if d.Deadline.SecondsLeft < 0 {
			d.WaitingFor = append([]string{WaitDeadlinePassed}, d.WaitingFor...)
		}
	}
	if f, err := s.FundingAt(ctx, ref.Hash, [][2]common.Address{{rec.Order.TokenIn, rec.Order.Maker}}); err == nil {
		if got, ok := f[[2]common.Address{rec.Order.TokenIn, rec.Order.Maker}]; ok {
			d.Funding = &DiagFunding{Balance: got.Balance.Dec(), Allowance: got.Allowance.Dec(), Needed: needed.Dec(), Covered: got.Covers(needed)}
			if got.Balance.Lt(needed) {
				d.WaitingFor = append(d.WaitingFor, WaitBalance)
			}
			if got.Allowance.Lt(needed) {
				d.WaitingFor = append(d.WaitingFor, WaitAllowance)
			}
		}
	}
	if d.Funding != nil && !d.Funding.Covered {
		d.Executable = false // the keeper list and stream leave it out
	}
	if tr.AllowedSender != ([10]byte{}) {
		k := &DiagKeeper{AllowedSender: "0x" + hex.EncodeToString(tr.AllowedSender[:])}
		if t := rec.Trailing; t != nil && t.DesignatedKeeper != nil {
			a := chain.Checksum(*t.DesignatedKeeper)
			k.Address = &a
		}
		d.DesignatedKeeper = k
	}
	if len(d.WaitingFor) == 0 {
		if d.DesignatedKeeper != nil {
			d.WaitingFor = append(d.WaitingFor, WaitDesignatedKeeper)
		} else {
			d.WaitingFor = append(d.WaitingFor, WaitKeeper)
		}
	}
	if a, ok, err := s.chain.FailedAttempt(rec.Hash); err == nil && ok {
		f := &DiagFailedAttempt{TxHash: a.TxHash.Hex(), BlockNumber: a.BlockNumber, Keeper: chain.Checksum(a.Keeper), At: time.Unix(int64(a.Timestamp), 0).UTC()}
		if a.RevertName != "" {
			f.RevertName = &a.RevertName
		}
		d.LastFailedFill = f
	}
	return d
}

// listed reports whether the pairs list order h executable.
func (s *Service) listed(key string, h common.Hash) bool {
	after := new(big.Int).SetBytes(h[:])
	if after.Sign() == 0 {
		return false
	}
	var from common.Hash
	after.Sub(after, big.NewInt(1)).FillBytes(from[:])
	found := false
	s.d.Pairs.EachExecutable(key, from, func(x pair.Executable) bool {
		found = x.Hash == h
		return false
	})
	return found
}

// condition fills d's condition (and the WaitingFor it implies) and returns
// the amount the next fill needs.
func (s *Service) condition(d *Diagnostics, rec *orderstore.Record, tr chain.Traits, co chainstore.Order, price *big.Int, ref pair.BlockRef) *uint256.Int {
	c := &d.Condition
	if price != nil {
		p := price.String()
		c.OraclePrice = &p
	}
	trigger := rec.Order.TriggerPrice.ToBig()
	filled := rec.FilledIn
	if co.FilledAmountIn.Gt(&filled) {
		filled = co.FilledAmountIn
	}
	var remaining uint256.Int
	if !filled.Gt(&rec.Order.AmountIn) {
		remaining.Sub(&rec.Order.AmountIn, &filled)
	}
	priced := func(kind string, above bool) {
		c.Kind = kind
		t := trigger.String()
		c.TriggerPrice = &t
		if price == nil {
			d.WaitingFor = append(d.WaitingFor, WaitOraclePrice)
			return
		}
		dist := distancePpm(price, trigger, above)
		c.DistancePpm, c.Met = &dist, dist == 0
		if !c.Met {
			d.WaitingFor = append(d.WaitingFor, WaitTrigger)
		}
	}
	switch rec.Class {
	case chain.ClassStopLoss:
		priced("price_at_or_below", false)
	case chain.ClassLimit, chain.ClassTakeProfit:
		priced("price_at_or_above", true)
	case chain.ClassTrailing:
		s.trailing(d, rec, tr, price)
	case chain.ClassDCA:
		return s.dcaCondition(d, rec, co, filled, price, ref)
	}
	return &remaining
}

// trailing fills a trailing order's condition: the peak since activation,
// the price it fires at, and the distance to it.
func (s *Service) trailing(d *Diagnostics, rec *orderstore.Record, tr chain.Traits, price *big.Int) {
	c := &d.Condition
	c.Kind = "trailing"
	trail := tr.TrailPpm()
	c.TrailPpm = &trail
	peak, err := s.d.Pairs.Peak(rec.Hash)
	if err != nil {
		s.log.Warn("diagnostics: trailing peak", "order", rec.Hash, "err", err)
	}
	if peak == nil {
		peak = price // the peak starts at the first price seen
	}
	if peak != nil {
		p := peak.String()
		fire := new(big.Int).Mul(peak, big.NewInt(int64(1_000_000-min(trail, 1_000_000))))
		fire.Quo(fire, big.NewInt(1_000_000))
		f := fire.String()
		c.Peak, c.FirePrice = &p, &f
		if price != nil {
			dist := distancePpm(price, fire, false)
			c.DistancePpm = &dist
		}
	}
	switch {
	case !rec.TriggeredAt.IsZero():
		c.Met = true
		zero := uint64(0)
		c.DistancePpm = &zero
	case price == nil:
		d.WaitingFor = append(d.WaitingFor, WaitOraclePrice)
	case c.DistancePpm != nil && *c.DistancePpm == 0:
		c.Met = true
	default:
		d.WaitingFor = append(d.WaitingFor, WaitTrigger)
	}
}

// dcaCondition fills a DCA order's schedule and returns the next leg's
// amount.
func (s *Service) dcaCondition(d *Diagnostics, rec *orderstore.Record, co chainstore.Order, filled uint256.Int, price *big.Int, ref pair.BlockRef) *uint256.Int {
	c := &d.Condition
	c.Kind = "dca_schedule"
	p := rec.DCA
	if p == nil {
		return new(uint256.Int)
	}
	execs := max(rec.Executions, co.Executions)
	st := pair.EvaluateDCA(pair.DCA{
		AmountIn: rec.Order.AmountIn.ToBig(), FilledIn: filled.ToBig(), TotalExecutions: p.TotalExecutions, Executions: execs,
		IntervalSeconds: p.IntervalSeconds, FlexibilityPpm: p.FlexibilityPpm, ShortCircuit: p.ShortCircuit,
		PriceGated: p.PriceGated, TriggerPrice: rec.Order.TriggerPrice.ToBig(), AcceptedAt: uint64(rec.CreatedAt.Unix()),
		FirstExecution: co.FirstExecution, LastExecution: co.LastExecution,
	}, ref.Time, price)
	due := time.Unix(int64(st.DueAt), 0).UTC()
	total, gated := p.TotalExecutions, p.PriceGated
	c.NextLegDueAt, c.LegsExecuted, c.TotalLegs, c.PriceGated = &due, &execs, &total, &gated
	leg := st.FillIn
	if !st.Due {
		leg = new(big.Int).Quo(rec.Order.AmountIn.ToBig(), big.NewInt(int64(max(total, 1))))
		if rem := new(big.Int).Sub(rec.Order.AmountIn.ToBig(), filled.ToBig()); leg.Cmp(rem) > 0 || execs+1 >= uint32(total) {
			leg = rem
		}
	}
	amount := leg.String()
	c.NextLegAmountIn = &amount
	if gated {
		t := rec.Order.TriggerPrice.ToBig().String()
		c.TriggerPrice = &t
		if price != nil {
			dist := distancePpm(price, rec.Order.TriggerPrice.ToBig(), true)
			c.DistancePpm = &dist
		}
	}
	c.Met = st.Due
	switch {
	case ref.Time < st.DueAt:
		d.WaitingFor = append(d.WaitingFor, WaitDCALeg)
	case gated && price == nil:
		d.WaitingFor = append(d.WaitingFor, WaitOraclePrice)
	case !st.Due:
		d.WaitingFor = append(d.WaitingFor, WaitTrigger)
	}
	var out uint256.Int
	if out.SetFromBig(leg) {
		out.SetAllOne()
	}
	return &out
}

// distancePpm is how far price must move to reach target (at or above it
// when above, else at or below), in ppm of price; 0 when it is there.
func distancePpm(price, target *big.Int, above bool) uint64 {
	if price.Sign() <= 0 {
		return 0
	}
	gap := new(big.Int).Sub(target, price)
	if !above {
		gap.Neg(gap)
	}
	if gap.Sign() <= 0 {
		return 0
	}
	gap.Mul(gap, big.NewInt(1_000_000))
	gap.Quo(gap, price)
	if !gap.IsUint64() {
		return ^uint64(0)
	}
	return gap.Uint64()
}
