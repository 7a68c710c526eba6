package order

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

func newTestRegistry(t *testing.T) *Registry {
	r, _ := openTestRegistry(t, false)
	return r
}

// openTestRegistry opens a registry over a fresh store; with filter, the
// store's hash filter is loaded, as the order service runs it, so a
// certainly-new hash is created without an actor (create.go). The map
// counts the change feed's calls by "hash prev>status".
func openTestRegistry(t *testing.T, filter bool) (*Registry, *sync.Map) {
	t.Helper()
	store, err := persistence.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	orders := orderstore.New(store, persistence.NewOutbox(store, nil, nil))
	if filter {
		if err := orders.LoadHashFilter(); err != nil {
			t.Fatal(err)
		}
	}
	var changes sync.Map
	feed := func(prev orderstore.Status, rec *orderstore.Record, _ *common.Address) {
		n, _ := changes.LoadOrStore(rec.Hash.Hex()+" "+prev.String()+">"+rec.Status.String(), new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
	}
	// Idle is long: the tests run the sweep themselves.
	return NewRegistry(system, Options{Journal: orders, Idle: time.Hour, Feed: feed}), &changes
}

func testRecord(i int) *orderstore.Record {
	now := time.Unix(1_800_000_000, 0).UTC()
	return &orderstore.Record{
		Hash: common.BigToHash(big.NewInt(int64(i + 1))), Version: 1, Class: chain.ClassLimit, Status: orderstore.StatusPending, AccountID: "acc",
		Order:     chain.Order{Maker: common.HexToAddress("0x1000000000000000000000000000000000000001"), AmountIn: *uint256.NewInt(1)},
		CreatedAt: now, UpdatedAt: now,
	}
}

// Every actor shares one Props and learns its order from bind: many
// orders created and cancelled concurrently each answer with their own
// record.
func TestActorsOwnTheirOrder(t *testing.T) {
	r := newTestRegistry(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 100 {
		wg.Go(func() {
			rec := testRecord(i)
			if err := r.Create(ctx, rec, nil); err != nil {
				errs <- err
				return
			}
			h := rec.Hash
			res, err := r.request(ctx, h, &CancelRequest{})
			if err == nil && (res.Err != nil || res.Record.Hash != rec.Hash || res.Record.Status != orderstore.StatusCancelled) {
				err = fmt.Errorf("cancel %s answered %+v", rec.Hash.Hex(), res)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if r.Live() != 100 {
		t.Fatalf("live actors %d, want 100", r.Live())
	}
}

// An idle actor is passivated by the sweeps; the next request starts a new
// one, which loads the record from the journal.
func TestSweepPassivatesAndRequestsReactivate(t *testing.T) {
	r := newTestRegistry(t)
	ctx := context.Background()
	rec := testRecord(0)
	h := rec.Hash
	if err := r.Create(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	if err := r.Warm(ctx, h); err != nil || r.Live() != 1 {
		t.Fatalf("warm: live %d, %v", r.Live(), err)
	}
	for range 3 {
		r.Sweep()
	}
	if r.Live() != 0 {
		t.Fatalf("idle actor not passivated: live %d", r.Live())
	}
	err := r.Cancel(ctx, h) // reloads the pending record from the journal
	if err != nil || r.Live() != 1 {
		t.Fatalf("cancel after the sweep: err %v, live %d", err, r.Live())
	}
	if err := r.Cancel(ctx, h); orderengine.AsError(err).Code != orderengine.CodeNotCancellable {
		t.Fatalf("second cancel: %v, want NOT_CANCELLABLE", err)
	}
	if stopped, _ := r.Passivate(ctx, h); !stopped || r.Live() != 0 {
		t.Fatal("explicit passivation")
	}
}

// Concurrent creates of one hash: exactly one stores it (announced once),
// the others answer ALREADY_EXISTS; the new order starts without an actor
// and its first request loads it.
func TestCreateClaimsTheHash(t *testing.T) {
	r, changes := openTestRegistry(t, true)
	ctx := context.Background()
	rec := testRecord(7)
	var created, exists atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for range 32 {
		wg.Go(func() {
			c := *rec
			err := r.Create(ctx, &c, nil)
			var oe *orderengine.Error
			switch {
			case err == nil:
				created.Add(1)
			case errors.As(err, &oe) && oe.Code == orderengine.CodeAlreadyExists:
				exists.Add(1)
			default:
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if created.Load() != 1 || exists.Load() != 31 {
		t.Fatalf("created %d, already exists %d", created.Load(), exists.Load())
	}
	if n, ok := changes.Load(rec.Hash.Hex() + " >pending"); !ok || n.(*atomic.Int32).Load() != 1 {
		t.Fatalf("creation announced %v times", n)
	}
	h := rec.Hash
	if err := r.Cancel(ctx, h); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	if r.Live() != 1 {
		t.Fatalf("live %d after the first request", r.Live())
	}
}

// A request for a hash that a Create has claimed waits for the claim: it
// sees the stored order, not "not found".
func TestRequestWaitsForTheClaim(t *testing.T) {
	r, _ := openTestRegistry(t, true)
	ctx := context.Background()
	rec := testRecord(8)
	h := rec.Hash
	release := r.reg.Claim(h)
	if release == nil {
		t.Fatal("a new hash was not claimable")
	}
	if r.reg.Claim(h) != nil {
		t.Fatal("a claimed hash was claimed twice")
	}
	if n := r.Live(); n != 0 {
		t.Fatalf("Live() = %d with only a claim held, want 0 (a claim is not an actor)", n)
	}
	got := make(chan error, 1)
	go func() { got <- r.Cancel(ctx, h) }()
	time.Sleep(20 * time.Millisecond) // without the wait, the cancel would answer NOT_FOUND by now
	if err := r.opts.Journal.AppendOrder(ctx, &orderstore.Transition{Record: rec}); err != nil {
		t.Fatal(err)
	}
	release()
	if err := <-got; err != nil {
		t.Fatalf("cancel after the claim: %v", err)
	}
	if n := r.Live(); n != 1 {
		t.Fatalf("Live() = %d after the cancel, want 1 (the order's actor)", n)
	}
}

// The change feed hears every durable change, in commit order per order,
// for creates without an actor and for actor transitions, with the
// binding written with a create.
func TestFeedHearsEveryChange(t *testing.T) {
	store, err := persistence.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	orders := orderstore.New(store, persistence.NewOutbox(store, nil, nil))
	if err := orders.LoadHashFilter(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	r := NewRegistry(system, Options{Journal: orders, Feed: func(prev orderstore.Status, rec *orderstore.Record, bind *common.Address) {
		mu.Lock()
		defer mu.Unlock()
		hex := rec.Hash.Hex()
		line := hex[len(hex)-1:] + " " + prev.String() + ">" + rec.Status.String()
		if bind != nil {
			line += " bound"
		}
		got = append(got, line)
	}})
	ctx := context.Background()
	rec := testRecord(0)
	ref := common.Address{0xaa}
	if err := r.Create(ctx, rec, &ref); err != nil {
		t.Fatal(err)
	}
	if err := r.Cancel(ctx, rec.Hash); err != nil {
		t.Fatal(err)
	}
	if err := r.Create(ctx, testRecord(1), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if line := strings.Join(got, ","); line != "1 >pending bound,1 pending>cancelled,2 >pending" {
		t.Fatalf("the feed heard %q", line)
	}
}

// An actor that loaded version 1 does not commit over a version 2 that
// another writer appended meanwhile: its append is refused, it reloads and
// decides again on version 2 (here: the order is now active, so the
// off-chain cancel is NOT_CANCELLABLE, where version 1 would have allowed
// it).
func TestActorReloadsOnAVersionConflict(t *testing.T) {
	r, changes := openTestRegistry(t, true)
	ctx := context.Background()
	rec := testRecord(4)
	if err := r.Create(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	if err := r.Warm(ctx, rec.Hash); err != nil { // the actor holds version 1
		t.Fatal(err)
	}
	v2 := rec.Clone()
	v2.Version, v2.Status = 2, orderstore.StatusActive
	if err := r.opts.Journal.AppendOrder(ctx, &orderstore.Transition{Record: v2, Expect: 1, Prev: orderstore.StatusPending}); err != nil {
		t.Fatal(err)
	}
	err := r.Cancel(ctx, rec.Hash)
	if e := orderengine.AsError(err); err == nil || e.Code != orderengine.CodeNotCancellable {
		t.Fatalf("cancel over a newer version: %v", err)
	}
	res, err := r.request(ctx, rec.Hash, &WarmRequest{})
	if err != nil || res.Record.Version != 2 || res.Record.Status != orderstore.StatusActive {
		t.Fatalf("the actor holds %+v, %v; want version 2 active", res, err)
	}
	if _, ok := changes.Load(rec.Hash.Hex() + " pending>cancelled"); ok {
		t.Fatal("a cancel decided on the stale version was announced")
	}
}
