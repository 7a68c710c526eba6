package keeper

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/api"
)

// Client is what the reference keeper needs of a node (ethclient and the
// simulated backend's client satisfy it).
type Client interface {
	ethereum.ContractCaller
	ethereum.GasEstimator
	ethereum.GasPricer1559
	ethereum.TransactionSender
	ethereum.BlockNumberReader
	ethereum.ChainReader
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
	ChainID(ctx context.Context) (*big.Int, error)
}

// Source lists a page of the orders executable now for a keeper address,
// from cursor ("": the start); next is the cursor of the following page
// ("" at the end).
type Source func(ctx context.Context, keeper common.Address, cursor string) (items []Item, next string, err error)

// sourcePage is the page size the reference keeper asks for.
const sourcePage = 100

// ServiceSource is a Source over an in-process Service.
func ServiceSource(s *Service) Source {
	return func(ctx context.Context, keeper common.Address, cursor string) ([]Item, string, error) {
		list, err := s.Executable(ctx, api.KeeperExecutableRequest{Keeper: keeper.Hex(), Limit: sourcePage, Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return list.Orders, deref(list.NextCursor), nil
	}
}

// HTTPSource is a Source over the public API (base URL and API key).
func HTTPSource(base, apiKey string, hc *http.Client) Source {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return func(ctx context.Context, keeper common.Address, cursor string) ([]Item, string, error) {
		q := url.Values{"limit": {strconv.Itoa(sourcePage)}, "keeper": {keeper.Hex()}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/keeper/executable?"+q.Encode(), nil)
		if err != nil {
			return nil, "", err
		}
		req.Header.Set("X-API-Key", apiKey)
		resp, err := hc.Do(req)
		if err != nil {
			return nil, "", fmt.Errorf("keeper: list executable: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, "", apiError(resp)
		}
		var body ExecutableList
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			return nil, "", fmt.Errorf("keeper: decode executable list: %w", err)
		}
		return body.Orders, deref(body.NextCursor), nil
	}
}

// APIError is the API's refusal of a keeper list request.
type APIError struct {
	Status  int
	Code    string // the error object's code ("" when the body is not one)
	Message string
	// RetryAfter is the Retry-After header (a 429's wait; 0 when absent).
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	return fmt.Sprintf("keeper: list executable: HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// apiError reads a non-200 answer of the API.
func apiError(resp *http.Response) *APIError {
	e := &APIError{Status: resp.StatusCode}
	var body struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body) == nil {
		e.Code, e.Message = body.Code, body.Error
	}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
		e.RetryAfter = time.Duration(secs) * time.Second
	}
	return e
}

// retryAfter is the wait the API asked for with a refusal (a 429's
// Retry-After), 0 when err is no such refusal.
func retryAfter(err error) time.Duration {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.RetryAfter
	}
	return 0
}

// retryWait is how long Run waits after a step that failed with err: the
// poll period, or the API's Retry-After when that is longer (a rate-limited
// keeper does not come back before the window has room).
func retryWait(err error, poll time.Duration) time.Duration {
	return max(poll, retryAfter(err))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Runner is the reference keeper: it executes listed orders with its own
// key, simulating each transaction first.
type Runner struct {
	// CallTimeout bounds each call to the node (DefaultCallTimeout unless
	// set before Run): a node that accepts a request and never answers
	// fails the call, and the step, instead of freezing the keeper.
	CallTimeout time.Duration
	// Follow, when set before Run, is the keeper stream Run acts on: at
	// each block it announces, Run executes the stream's set
	// (StepStream); while the stream is down, Run polls the source. Run
	// runs it and stops it with ctx.
	Follow *Follower

	client Client
	key    *ecdsa.PrivateKey
	addr   common.Address
	source Source
	log    *slog.Logger
	drive  func() bool // RunnerOptions.Drive
	// sent remembers the block an order's transaction was sent at, so an
	// order is not sent twice while its fill is not yet indexed; an entry
	// is dropped once resendAfter blocks passed, so a long-running keeper
	// remembers only its last few blocks' transactions.
	sent map[string]uint64
	// cursor is where the next step's page starts: each step takes the
	// next page of the list, and starts over after the last.
	cursor string
	// chainID is the node's, read once.
	chainID *big.Int
	// next is the nonce after the keeper's last sent transaction, sent at
	// block nextAt: see sender.
	next, nextAt uint64
	// stale counts the items of the last executeAll that would revert.
	stale int
}

// sender is what the transactions of one step share, read from the node
// at the first one to send: the fee caps and the nonce, which the keeper
// then counts itself. The node's pending nonce is not asked again for
// each transaction, since a node behind a load balancer (or slow to
// admit a transaction to its pool) may not count the one just sent yet,
// and the next would reuse its nonce. For the same reason a step within
// resendAfter blocks of the last send starts from the larger of the
// node's pending nonce and the keeper's own count; later ones trust the
// node again, so a transaction the pool dropped leaves no lasting gap.
type sender struct {
	ready       bool
	nonce       uint64
	tip, feeCap *big.Int
}

// RunnerOptions configure a Runner.
type RunnerOptions struct {
	// Log receives the keeper's logs (nil: discarded).
	Log *slog.Logger
	// Drive tells whether this keeper may send now: in a cluster only the
	// node holding the chain lifecycle's lease runs its keeper. Run skips
	// its steps while it reports false, and a step sends nothing more once
	// it turns false. Nil: always.
	Drive func() bool
}

// NewRunner returns a keeper executing with key.
func NewRunner(client Client, key *ecdsa.PrivateKey, source Source, opts RunnerOptions) *Runner {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runner{CallTimeout: DefaultCallTimeout, client: client, key: key, addr: crypto.PubkeyToAddress(key.PublicKey), source: source,
		log: log.With("component", "keeper"), drive: opts.Drive, sent: map[string]uint64{}}
}

// Address is the keeper's address.
func (r *Runner) Address() common.Address { return r.addr }

// Run executes every poll until ctx is done. A failed step (node or API
// down) is logged and retried at the next poll, or after the API's
// Retry-After when it asks for longer.
func (r *Runner) Run(ctx context.Context, poll time.Duration) {
	var wake <-chan struct{}
	if r.Follow != nil {
		var wg sync.WaitGroup
		defer wg.Wait()
		wg.Go(func() { r.Follow.Run(ctx) })
		wake = r.Follow.Wake()
	}
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
			t.Stop()
		}
		start, wait := time.Now(), poll
		if !r.driving() {
			t.Reset(poll)
			continue
		}
		step := r.Step
		if r.Follow != nil && r.Follow.Connected() {
			step = r.StepStream
		}
		if _, err := step(ctx); err != nil && ctx.Err() == nil {
			wait = retryWait(err, poll)
			r.log.Warn("keeper step failed", "err", err, "retryIn", wait)
		}
		t.Reset(time.Until(start.Add(wait)))
	}
}

// driving reports whether the keeper may send now (RunnerOptions.Drive).
func (r *Runner) driving() bool { return r.drive == nil || r.drive() }

// DefaultCallTimeout is the default Runner.CallTimeout.
const DefaultCallTimeout = 10 * time.Second

// nodeCall makes one call to r's node, bounded by r.CallTimeout.
func nodeCall[T any](r *Runner, ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	if r.CallTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.CallTimeout)
		defer cancel()
	}
	return f(ctx)
}

// errWouldRevert marks an item whose fillOrder the node says reverts now.
var errWouldRevert = errors.New("would revert")

// resendAfter is how many blocks a sent order waits before it may be sent
// again (its fill was not indexed, or the transaction was dropped).
const resendAfter = 3

// Step lists the next page of executable orders and sends a transaction
// for each one whose simulation succeeds. It returns the transactions
// sent.
func (r *Runner) Step(ctx context.Context) ([]*types.Transaction, error) {
	// The node first: while it is down the step fails without taking a
	// page it could not act on.
	head, err := nodeCall(r, ctx, r.client.BlockNumber)
	if err != nil {
		return nil, err
	}
	items, next, err := r.source(ctx, r.addr, r.cursor)
	if err != nil {
		return nil, err
	}
	r.cursor = next
	return r.executeAll(ctx, head, items), nil
}

// StepStream executes the orders of the keeper stream's set (Follow) that
// were not sent in the last resendAfter blocks, each simulated first. The
// stream's transactions are built once for every keeper, so one may no
// longer execute (its route went stale as the pools moved): when one does
// not simulate, the step also takes a page of the polling list, whose
// routes are fresh. It returns the transactions sent.
func (r *Runner) StepStream(ctx context.Context) ([]*types.Transaction, error) {
	head, err := nodeCall(r, ctx, r.client.BlockNumber)
	if err != nil {
		return nil, err
	}
	r.stale = 0
	sent := r.executeAll(ctx, head, r.Follow.Items())
	if r.stale == 0 {
		return sent, nil
	}
	more, err := r.Step(ctx)
	return append(sent, more...), err
}

// executeAll sends a transaction for each item whose simulation succeeds,
// unless it was sent in the last resendAfter blocks; it counts the items
// that would revert in r.stale.
func (r *Runner) executeAll(ctx context.Context, head uint64, items []Item) []*types.Transaction {
	for h, at := range r.sent { // entries that no longer hold anything back
		if head >= at+resendAfter {
			delete(r.sent, h)
		}
	}
	var out []*types.Transaction
	var snd sender
	for _, it := range items {
		if !r.driving() {
			break
		}
		if at, ok := r.sent[it.OrderHash]; ok && head < at+resendAfter {
			continue
		}
		tx, err := r.execute(ctx, it, head, &snd)
		if err != nil {
			// An order that would revert is listed again at every poll until
			// it executes (or its state changes): at Debug, or it would be
			// logged every poll. A failure to send is the keeper's own.
			level := slog.LevelWarn
			if errors.Is(err, errWouldRevert) {
				level = slog.LevelDebug
				r.stale++
			}
			r.log.Log(ctx, level, "not executing", "order", it.OrderHash, "err", err, "revert", RevertName(err))
			continue
		}
		r.sent[it.OrderHash] = head
		out = append(out, tx)
	}
	return out
}

// Sweep steps through the whole list once, from its first page to its
// last, and returns every transaction sent (keeper --once).
// A page the API refused with a Retry-After (429) is asked again once the
// wait is over; any other failure ends the sweep.
func (r *Runner) Sweep(ctx context.Context) ([]*types.Transaction, error) {
	r.cursor = ""
	var out []*types.Transaction
	for {
		sent, err := r.Step(ctx)
		out = append(out, sent...)
		if wait := retryAfter(err); wait > 0 {
			r.log.Info("keeper list rate limited: waiting", "retryIn", wait)
			select {
			case <-ctx.Done():
				return out, ctx.Err()
			case <-time.After(wait):
				continue
			}
		}
		if err != nil || r.cursor == "" {
			return out, err
		}
	}
}

// execute simulates the item's fillOrder and sends it when it succeeds,
// with the step's sender (read from the node at its first use).
func (r *Runner) execute(ctx context.Context, it Item, head uint64, snd *sender) (*types.Transaction, error) {
	to := common.HexToAddress(it.Tx.To)
	data, err := hexutil.Decode(it.Tx.Data)
	if err != nil {
		return nil, err
	}
	msg := ethereum.CallMsg{From: r.addr, To: &to, Data: data}
	if _, err := nodeCall(r, ctx, func(c context.Context) ([]byte, error) { return r.client.CallContract(c, msg, nil) }); err != nil {
		return nil, fmt.Errorf("%w: simulation: %w", errWouldRevert, err)
	}
	gas, err := nodeCall(r, ctx, func(c context.Context) (uint64, error) { return r.client.EstimateGas(c, msg) })
	if err != nil {
		return nil, fmt.Errorf("%w: gas estimation: %w", errWouldRevert, err)
	}
	if err := r.prepare(ctx, head, snd); err != nil {
		return nil, err
	}
	tx, err := types.SignNewTx(r.key, types.LatestSignerForChainID(r.chainID), &types.DynamicFeeTx{
		ChainID: r.chainID, Nonce: snd.nonce, GasTipCap: snd.tip, GasFeeCap: snd.feeCap, Gas: gas + gas/5, To: &to, Data: data,
	})
	if err != nil {
		return nil, err
	}
	if _, err := nodeCall(r, ctx, func(c context.Context) (struct{}, error) { return struct{}{}, r.client.SendTransaction(c, tx) }); err != nil {
		snd.ready = false // the node may know better (another sender of this key): ask it again
		return nil, fmt.Errorf("send: %w", err)
	}
	snd.nonce++
	r.next, r.nextAt = snd.nonce, head
	r.log.Info("fillOrder sent", "order", it.OrderHash, "tx", tx.Hash(), "nonce", tx.Nonce(), "fillIn", it.FillIn)
	return tx, nil
}

// prepare reads the step's sender from the node unless it is ready.
func (r *Runner) prepare(ctx context.Context, head uint64, snd *sender) error {
	if snd.ready {
		return nil
	}
	if r.chainID == nil {
		id, err := nodeCall(r, ctx, r.client.ChainID)
		if err != nil {
			return err
		}
		r.chainID = id
	}
	nonce, err := nodeCall(r, ctx, func(c context.Context) (uint64, error) { return r.client.PendingNonceAt(c, r.addr) })
	if err != nil {
		return err
	}
	if r.next > nonce && head < r.nextAt+resendAfter {
		nonce = r.next
	}
	tip, err := nodeCall(r, ctx, r.client.SuggestGasTipCap)
	if err != nil {
		return err
	}
	h, err := nodeCall(r, ctx, func(c context.Context) (*types.Header, error) { return r.client.HeaderByNumber(c, nil) })
	if err != nil {
		return err
	}
	if h.BaseFee == nil {
		return errors.New("keeper: the node's head has no base fee (a chain before London): dynamic-fee transactions cannot be priced")
	}
	*snd = sender{ready: true, nonce: nonce, tip: tip, feeCap: new(big.Int).Add(tip, new(big.Int).Mul(h.BaseFee, big.NewInt(2)))}
	return nil
}
