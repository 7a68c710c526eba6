// Package keeper is the keeper side of the lifecycle: the service behind
// GET /v1/keeper/executable (orders executable now with everything needed
// to call the router's fillOrder) and the reference keeper that executes
// them with its own key, simulating first and never sending a transaction
// the simulation says reverts.
package keeper

import (
	"context"
	"encoding/hex"
	"log/slog"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/persistence/orderstore"
	"github.com/orderengine/orderengine/routing"
)

// Router builds a fresh route for an amount (routing.Service does).
type Router interface {
	Route(ctx context.Context, p routing.RouteParams) (*routing.RouteResponse, error)
}

// Caller simulates calls at the latest block.
type Caller interface {
	CallContract(ctx context.Context, msg ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
}

// Options configure a Service.
type Options struct {
	Pairs      *pair.Pairs
	Routes     Router
	RouterAddr common.Address
	Chain      Caller          // nil: no simulation, no failed transitions
	Registry   *order.Registry // nil: failures are not recorded
	Log        *slog.Logger
	Now        func() time.Time
	// Covers, when set, says whether a maker holds and has approved an
	// amount of a token (known false: could not tell). An order whose fill
	// is not covered is left out before its route and simulation are built.
	Covers func(ctx context.Context, token, maker common.Address, amount *big.Int) (covers, known bool)
	// Prefetch, when set, is told the (tokenIn, maker) pairs of the orders
	// a request is about to examine, before their Covers calls, so that it
	// can read them all at once (the order service's multicall).
	Prefetch func(ctx context.Context, pairs [][2]common.Address)
}

// Service implements http.KeeperService.
type Service struct {
	opts   Options
	router *servicerouter.ServiceRouter
}

// NewService returns the keeper service.
func NewService(opts Options) *Service {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{opts: opts, router: servicerouter.NewServiceRouter()}
}

// ExecutableList is the body of GET /v1/keeper/executable.
type ExecutableList struct {
	Orders     []Item  `json:"orders"`
	NextCursor *string `json:"nextCursor"`
}

// Listing is what the polling list and the keeper stream both say of an
// executable order: the order and its signature, the amount of this
// execution, the oracle price and the block.
type Listing struct {
	OrderHash   string      `json:"orderHash"`
	OrderType   string      `json:"orderType"`
	Pair        string      `json:"pair"`
	Order       chain.Order `json:"order"`
	Signature   string      `json:"signature"`
	FillIn      string      `json:"fillIn"`
	OraclePrice *string     `json:"oraclePrice"`
	Block       uint64      `json:"block"`
}

// listing is rec's Listing for execution x, announced at block.
func listing(rec *orderstore.Record, x pair.Executable, block uint64) Listing {
	l := Listing{
		OrderHash: rec.Hash.Hex(), OrderType: rec.Class.String(), Order: rec.Order, Signature: hexutil.Encode(rec.Signature),
		Pair:   chain.Checksum(rec.Order.TokenIn) + "-" + chain.Checksum(rec.Order.TokenOut),
		FillIn: x.FillIn.String(), Block: block,
	}
	if x.Price != nil {
		p := x.Price.String()
		l.OraclePrice = &p
	}
	return l
}

// Item is one executable order of the polling list.
type Item struct {
	Listing
	Route             RouteCalls `json:"route"`
	MinAmountOut      string     `json:"minAmountOut"`
	ExpectedAmountOut string     `json:"expectedAmountOut"`
	ExpectedKeeperFee string     `json:"expectedKeeperFee"`
	Tx                TxData     `json:"tx"`
}

// RouteCalls are the executor calls of the fresh route.
type RouteCalls struct {
	Family    string   `json:"family"`
	Targets   []string `json:"targets"`
	Calldatas []string `json:"calldatas"`
}

// TxData is the fillOrder transaction to send as is: to, data and value
// (always "0": fillOrder is not payable), ready for a wallet library's
// sendTransaction; gas, nonce and fees are the keeper's.
type TxData struct {
	To    string `json:"to"`
	Data  string `json:"data"`
	Value string `json:"value"`
}

// Executable implements http.KeeperService: the pair actors'
// executable set, in order hash order after the cursor, each with a fresh
// route for its fill amount and a simulation of fillOrder from the keeper.
//
// Building an entry costs a route and an EVM simulation, and an order the
// engine lists may not be executable now (unfunded, designated to another
// keeper, reverting), so one request examines at most walkBudget(limit)
// orders (the makers' balances and allowances read in one prefetch; a
// record is read only for an order its maker can pay) and routes and
// simulates at most routeBudget(limit) of them: when either runs out before the page is full, the page ends early
// and nextCursor continues from the last order examined. A keeper follows
// nextCursor and starts over when it is null. Unfunded orders thus cost a
// cached lookup each, and a page walks past many of them.
func (s *Service) Executable(ctx context.Context, req api.KeeperExecutableRequest) (*ExecutableList, error) {
	limit := req.Limit
	if limit <= 0 {
		limit = 100
	}
	keeper, err := parseKeeper(req.Keeper)
	if err != nil {
		return nil, err
	}
	pairKey, err := parsePair(req.Pair)
	if err != nil {
		return nil, err
	}
	var after common.Hash
	if req.Cursor != "" {
		if !isHash(req.Cursor) {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "cursor %q is not an order hash (use nextCursor as given)", req.Cursor)
		}
		after = common.HexToHash(req.Cursor)
	}
	var examined []pair.Executable
	more := false
	s.opts.Pairs.EachExecutable(pairKey, after, func(x pair.Executable) bool {
		if len(examined) == walkBudget(limit) {
			more = true
			return false
		}
		examined = append(examined, x)
		return true
	})
	if s.opts.Prefetch != nil {
		pairs := make([][2]common.Address, len(examined))
		for i, x := range examined {
			pairs[i] = [2]common.Address{x.TokenIn, x.Maker}
		}
		s.opts.Prefetch(ctx, pairs)
	}
	out := ExecutableList{Orders: []Item{}}
	routes := routeBudget(limit)
	for i, x := range examined {
		if len(out.Orders) == limit || routes == 0 {
			last := examined[i-1].Hash.Hex()
			out.NextCursor = &last
			return &out, nil
		}
		if s.opts.Covers != nil {
			if covers, known := s.opts.Covers(ctx, x.TokenIn, x.Maker, x.FillIn); known && !covers {
				continue // the maker lacks the balance or the allowance: no record read, no route
			}
		}
		rec, found, err := s.opts.Pairs.Record(x.Hash)
		if err != nil {
			s.opts.Log.Error("keeper: executable order record", "err", err)
			return nil, orderengine.Errorf(orderengine.CodeInternal, "the executable orders could not be read")
		}
		if !found || !rec.Status.Open() {
			continue // closed since the last tick
		}
		it, ok, routed := s.item(ctx, x, rec, keeper)
		if routed {
			routes--
		}
		if ok {
			out.Orders = append(out.Orders, it)
		}
	}
	if more {
		last := examined[len(examined)-1].Hash.Hex()
		out.NextCursor = &last
	}
	return &out, nil
}

// parseKeeper parses the keeper parameter ("": none, the zero address).
func parseKeeper(v string) (common.Address, error) {
	if v == "" {
		return common.Address{}, nil
	}
	return chain.ParseAddress("keeper", v)
}

// parsePair parses the pair parameter into the pairs' key (checksummed
// "<tokenIn>-<tokenOut>"; "" for every pair).
func parsePair(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	a, b, ok := strings.Cut(v, "-")
	if !ok {
		return "", orderengine.Errorf(orderengine.CodeInvalidRequest, "pairKey must be <tokenIn address>-<tokenOut address>")
	}
	in, err := chain.ParseAddress("pairKey tokenIn", a)
	if err != nil {
		return "", err
	}
	out, err := chain.ParseAddress("pairKey tokenOut", b)
	if err != nil {
		return "", err
	}
	if in == out {
		return "", orderengine.Errorf(orderengine.CodeInvalidRequest, "pairKey tokenOut must differ from tokenIn")
	}
	return in.Hex() + "-" + out.Hex(), nil
}

// visible reports whether an order designated to allowedSender (zero: to
// any keeper) is shown to keeper (zero: a caller that named none, who is
// not shown designated orders).
func visible(allowedSender [10]byte, keeper common.Address) bool {
	return allowedSender == ([10]byte{}) || (keeper != (common.Address{}) && allowedSender == chain.SenderLow80(keeper))
}

// walkBudget is how many listed orders one request examines for a page of
// limit entries, and routeBudget how many of them it routes and simulates.
func walkBudget(limit int) int  { return 16 * limit }
func routeBudget(limit int) int { return 4 * limit }

// isHash reports whether s is a 0x-prefixed 32-byte hex hash.
func isHash(s string) bool {
	if len(s) != 66 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	_, err := hex.DecodeString(s[2:])
	return err == nil
}

// item builds one entry for an order whose maker can pay; ok is false when
// the order is not executable by this keeper now (designated to another
// keeper, no route, or simulation reverts), routed whether a route was
// built for it.
func (s *Service) item(ctx context.Context, x pair.Executable, rec *orderstore.Record, keeper common.Address) (_ Item, ok, routed bool) {
	if !visible(rec.Traits().AllowedSender, keeper) {
		return Item{}, false, false
	}
	f, ok := s.buildFill(ctx, x, rec)
	if !ok || !s.simulate(ctx, x, keeper, f.data) {
		return Item{}, false, true
	}
	return Item{
		Listing: listing(rec, x, x.Block), Route: f.route,
		MinAmountOut: f.minOut, ExpectedAmountOut: f.expectedOut, ExpectedKeeperFee: f.keeperFee,
		Tx: TxData{To: s.opts.RouterAddr.Hex(), Data: hexutil.Encode(f.data), Value: "0"},
	}, true, true
}

// fill is a fillOrder transaction built for an executable order: the fresh
// route's calls and amounts and the call data.
type fill struct {
	route                          RouteCalls
	minOut, expectedOut, keeperFee string
	data                           []byte
}

// buildFill builds a fresh route for x's fill amount and packs fillOrder
// with it (no simulation); ok is false when there is no route.
func (s *Service) buildFill(ctx context.Context, x pair.Executable, rec *orderstore.Record) (fill, bool) {
	so, tr, sig := signed(rec)
	slip := int64(tr.SlippagePpm)
	rt, err := s.opts.Routes.Route(ctx, routing.RouteParams{
		TokenIn: rec.Order.TokenIn.Hex(), TokenOut: rec.Order.TokenOut.Hex(), AmountIn: x.FillIn.String(), SlippagePpm: &slip,
		DirectSwap: "0", Wallet: rec.Order.Maker.Hex(), Referrer: rec.Order.Referrer.Hex(), OrderType: rec.Class.String(),
	})
	if err != nil {
		return fill{}, false
	}
	calls := make([]servicerouter.Call, len(rt.Route.Targets))
	for i := range calls {
		data, err := hexutil.Decode(rt.Route.Calldatas[i])
		if err != nil {
			return fill{}, false
		}
		calls[i] = servicerouter.Call{Target: common.HexToAddress(rt.Route.Targets[i]), Data: data}
	}
	minOut, ok := new(big.Int).SetString(rt.Route.MinAmountOut, 10)
	if !ok {
		return fill{}, false
	}
	return fill{
		route:  RouteCalls{Family: rt.Route.Family, Targets: rt.Route.Targets, Calldatas: rt.Route.Calldatas},
		minOut: minOut.String(), expectedOut: rt.AmountOut, keeperFee: rt.Fees.Keeper,
		data: s.router.PackFillOrder(so, sig, x.FillIn, calls, minOut),
	}, true
}

// SimulationSender is the sender a list without keeper simulates fillOrder
// from. Not the zero address: the router pays the keeper fee to the
// sender, and a standard ERC-20 refuses a transfer to the zero address, so
// every entry would revert and the anonymous list would be empty.
var SimulationSender = common.HexToAddress("0x000000000000000000000000000000000000dEaD")

// simulate runs fillOrder as the keeper (SimulationSender without one) at
// the latest block. A terminal router error fails the order (order.failed
// with revertName); any revert keeps the order off the list.
func (s *Service) simulate(ctx context.Context, x pair.Executable, keeper common.Address, data []byte) bool {
	if s.opts.Chain == nil {
		return true
	}
	from := keeper
	if from == (common.Address{}) {
		from = SimulationSender
	}
	to := s.opts.RouterAddr
	_, err := s.opts.Chain.CallContract(ctx, ethereum.CallMsg{From: from, To: &to, Data: data}, nil)
	if err == nil {
		return true
	}
	name := RevertName(err)
	if reason, bad := terminal[name]; bad && s.opts.Registry != nil {
		if _, ferr := s.opts.Registry.Fail(ctx, x.Hash, reason, name, s.opts.Now()); ferr != nil {
			s.opts.Log.Warn("record failed order", "order", x.Hash, "err", ferr)
		}
	}
	s.opts.Log.Debug("executable order does not simulate", "order", x.Hash, "revert", name, "err", err)
	return false
}

// signed converts a stored order into the router's struct.
func signed(rec *orderstore.Record) (servicerouter.Order, chain.Traits, []byte) {
	o := &rec.Order
	return servicerouter.Order{
		Salt: o.Salt.ToBig(), Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
		AmountIn: o.AmountIn.ToBig(), TriggerPrice: o.TriggerPrice.ToBig(), TriggerAmountOut: o.TriggerAmountOut.ToBig(),
		MakerTraits: o.MakerTraits.ToBig(), Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
	}, rec.Traits(), rec.Signature
}
