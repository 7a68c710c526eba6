package market

import (
	"context"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Service serves GET /v1/swaps, /v1/volume and /v1/stats (an
// http.MarketService) and the 30-day token volume of /v1/tokens (a
// routing.VolumeSource).
type Service struct {
	store  *persistence.Store
	market *chainstore.Market
	now    func() time.Time
	opts   ServiceOptions

	mu       sync.Mutex
	volAt    time.Time
	volToken map[common.Address]*big.Int
}

// ServiceOptions are the optional sources of /v1/stats.
type ServiceOptions struct {
	// Indexer reports the indexer's progress (nil: no indexer runs).
	Indexer func() *chainsync.Status
	// ActorsAlive reports live actors per kind.
	ActorsAlive func() map[string]int
	// Webhooks reports the webhook delivery counters.
	Webhooks func() api.WebhookStats
}

// NewService returns the market service over store; now is the clock.
func NewService(store *persistence.Store, now func() time.Time, opts ServiceOptions) *Service {
	return &Service{store: store, market: chainstore.NewMarket(store), now: now, opts: opts}
}

// maxScan bounds how many records one /v1/swaps page examines. A filtered
// page that reaches it before it is full ends early (even empty) with a
// nextCursor on the last record examined.
const maxScan = 20_000

// SwapList is the body of GET /v1/swaps.
type SwapList struct {
	Swaps      []chainstore.SwapRecord `json:"swaps"`
	NextCursor *string                 `json:"nextCursor"`
}

// Swaps implements http.MarketService: newest first, filtered by token
// (either side) and wallet (sender/maker or receiver), keyset-paginated.
// The filters are addresses as chain.ParseAddress takes them (0x-prefixed;
// mixed case must be EIP-55).
func (s *Service) Swaps(_ context.Context, req api.SwapsRequest) (*SwapList, error) {
	limit := req.Limit
	if limit <= 0 {
		limit = 100
	}
	if limit > 500 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "limit must be at most 500")
	}
	for _, f := range []struct{ name, v string }{{"token", req.Token}, {"wallet", req.Wallet}} {
		if f.v == "" {
			continue
		}
		if _, err := chain.ParseAddress(f.name, f.v); err != nil {
			return nil, err
		}
	}
	out := SwapList{Swaps: []chainstore.SwapRecord{}}
	var more bool
	var examined int
	var last chainstore.SwapRecord
	err := s.market.Swaps(req.Cursor, maxScan, func(r chainstore.SwapRecord) bool {
		if !matches(r, req.Token, req.Wallet) {
			examined, last = examined+1, r
			return true
		}
		if len(out.Swaps) == limit {
			more = true
			return false
		}
		examined, last = examined+1, r
		out.Swaps = append(out.Swaps, r)
		return true
	})
	if err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "%v", err)
	}
	switch {
	case more:
		c := chainstore.SwapCursor(&out.Swaps[len(out.Swaps)-1])
		out.NextCursor = &c
	case examined == maxScan:
		// The scan budget ran out before the page filled (a filter that
		// skips many records): the next page starts after the last record
		// examined, so following nextCursor to null still sees every match.
		c := chainstore.SwapCursor(&last)
		out.NextCursor = &c
	}
	return &out, nil
}

func matches(r chainstore.SwapRecord, token, wallet string) bool {
	if token != "" && !strings.EqualFold(r.TokenIn, token) && !strings.EqualFold(r.TokenOut, token) {
		return false
	}
	if wallet != "" && !strings.EqualFold(r.Wallet, wallet) && !strings.EqualFold(r.Receiver, wallet) {
		return false
	}
	return true
}

// Window is the volume over one period.
type Window struct {
	TotalUSD string    `json:"totalUsd"`
	Pairs    []PairUSD `json:"pairs"`
}

// PairUSD is one pair's volume.
type PairUSD struct {
	Pair      string `json:"pair"`
	TokenIn   string `json:"tokenIn"`
	TokenOut  string `json:"tokenOut"`
	VolumeUSD string `json:"volumeUsd"`
}

// VolumeBody is the body of GET /v1/volume.
type VolumeBody struct {
	AsOf  time.Time `json:"asOf"`
	Day   Window    `json:"24h"`
	Week  Window    `json:"7d"`
	Month Window    `json:"30d"`
}

// Volume implements http.MarketService: USD volume of fills and swaps,
// priced by the oracle at their block, over 24 h, 7 d and 30 d (whole hour
// buckets).
func (s *Service) Volume(context.Context) (*VolumeBody, error) {
	now := s.now().UTC()
	body := VolumeBody{AsOf: now}
	for _, w := range []struct {
		dst   *Window
		hours uint64
	}{{&body.Day, 24}, {&body.Week, 24 * 7}, {&body.Month, 24 * 30}} {
		win, err := s.window(now, w.hours)
		if err != nil {
			return nil, err
		}
		*w.dst = win
	}
	return &body, nil
}

func (s *Service) window(now time.Time, hours uint64) (Window, error) {
	hour := uint64(now.Unix()) / 3600
	from := uint64(0)
	if hour+1 > hours {
		from = hour + 1 - hours
	}
	pairs, err := s.market.Volume(from)
	if err != nil {
		return Window{}, err
	}
	total := new(big.Int)
	w := Window{Pairs: []PairUSD{}}
	for _, p := range pairs {
		total.Add(total, p.USD8)
		w.Pairs = append(w.Pairs, PairUSD{
			Pair: p.TokenIn.Hex() + "-" + p.TokenOut.Hex(), TokenIn: p.TokenIn.Hex(), TokenOut: p.TokenOut.Hex(),
			VolumeUSD: FormatUSD8(p.USD8),
		})
	}
	w.TotalUSD = FormatUSD8(total)
	return w, nil
}

// Volume30dUSD implements routing.VolumeSource: the token's 30-day volume
// in whole USD, on either side of a pair (cached for 10 s).
func (s *Service) Volume30dUSD(token common.Address) *big.Int {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.volToken == nil || now.Sub(s.volAt) > 10*time.Second {
		hour := uint64(now.Unix()) / 3600
		from := uint64(0)
		if hour+1 > 720 {
			from = hour + 1 - 720
		}
		pairs, err := s.market.Volume(from)
		if err != nil {
			return nil
		}
		m := map[common.Address]*big.Int{}
		for _, p := range pairs {
			for _, t := range []common.Address{p.TokenIn, p.TokenOut} {
				if m[t] == nil {
					m[t] = new(big.Int)
				}
				m[t].Add(m[t], p.USD8)
			}
		}
		s.volToken, s.volAt = m, now
	}
	v := s.volToken[token]
	if v == nil {
		return new(big.Int)
	}
	return new(big.Int).Quo(v, big.NewInt(100_000_000))
}

// StatsBody is the body of GET /v1/stats.
type StatsBody struct {
	Orders      OrderCounts       `json:"orders"`
	OpenOrders  int               `json:"openOrders"`
	Fills       uint64            `json:"fills"`
	Executions  uint64            `json:"executions"`
	Swaps       uint64            `json:"swaps"`
	ActorsAlive map[string]int    `json:"actorsAlive"`
	Indexer     *chainsync.Status `json:"indexer"`
	Webhooks    *api.WebhookStats `json:"webhooks"`
}

// OrderCounts counts orders by status, by class, and both.
type OrderCounts struct {
	ByStatus         map[string]int            `json:"byStatus"`
	ByClass          map[string]int            `json:"byClass"`
	ByStatusAndClass map[string]map[string]int `json:"byStatusAndClass"`
}

// Stats implements http.MarketService.
func (s *Service) Stats(context.Context) (*StatsBody, error) {
	counts, err := orderstore.Count(s.store)
	if err != nil {
		return nil, err
	}
	st, err := s.market.Stats()
	if err != nil {
		return nil, err
	}
	body := StatsBody{
		Orders: OrderCounts{ByStatus: map[string]int{}, ByClass: map[string]int{}, ByStatusAndClass: counts},
		Fills:  st.Fills, Executions: st.Executions, Swaps: st.Swaps,
		ActorsAlive: map[string]int{},
	}
	for status, byType := range counts {
		for typ, n := range byType {
			body.Orders.ByStatus[status] += n
			body.Orders.ByClass[typ] += n
			if st, _ := orderstore.ParseStatus(status); st.Open() {
				body.OpenOrders += n
			}
		}
	}
	if s.opts.ActorsAlive != nil {
		body.ActorsAlive = s.opts.ActorsAlive()
	}
	if s.opts.Indexer != nil {
		body.Indexer = s.opts.Indexer()
	}
	if s.opts.Webhooks != nil {
		ws := s.opts.Webhooks()
		body.Webhooks = &ws
	}
	return &body, nil
}
