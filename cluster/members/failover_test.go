//go:build !race

package members_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// sharedJournal is one store's order journal shared by every member: the
// replicated journal of a real cluster.
func sharedJournal(t *testing.T) (*persistence.Orders, *persistence.Outbox) {
	t.Helper()
	store, err := persistence.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	outbox := persistence.NewOutbox(store, nil, nil)
	return persistence.NewOrders(store, outbox), outbox
}

func failoverRecord(i int) *persistence.OrderRecord {
	now := t0
	return &persistence.OrderRecord{
		Hash: common.BigToHash(big.NewInt(int64(1000 + i))), Version: 1, Class: chain.ClassLimit, Status: persistence.StatusPending,
		AccountID: "acc",
		Order:     chain.Order{Maker: common.BigToAddress(big.NewInt(int64(i%5 + 1))), AmountIn: *uint256.NewInt(1000)},
		CreatedAt: now, UpdatedAt: now,
	}
}

// fill is the k-th fill of order h (cumulative filledIn k, one unit each).
func fill(h common.Hash, k int) order.ChainObserved {
	f := persistence.Fill{OrderHash: h, TxHash: common.BigToHash(big.NewInt(int64(k))), LogIndex: uint32(k),
		AmountIn: *uint256.NewInt(1), AmountOut: *uint256.NewInt(1), FilledAmountIn: *uint256.NewInt(uint64(k)),
		Executions: uint32(k), Timestamp: uint64(t0.Unix()) + uint64(k)}
	return order.ChainObserved{Chain: persistence.ChainOrder{Hash: h, ActivatedBlock: 1, FilledAmountIn: f.FilledAmountIn,
		Executions: uint32(k), Fills: k}, Fills: []persistence.Fill{f}, At: t0}
}

// A member dies mid-load: the orders it owned reactivate on the
// survivors, which load them from the journal, and every caller's request
// succeeds within its deadline (retried across the member's death); each
// fill is recorded once, with one event, whatever member took it.
func TestMemberLeavingMidLoad(t *testing.T) {
	journal, outbox := sharedJournal(t)
	c := newClusterWith(t, 3, clusterOpts{journal: journal}, nil)
	const orders, fills = 24, 12
	ctx := context.Background()
	hashes := make([]common.Hash, orders)
	for i := range orders {
		rec := failoverRecord(i)
		hashes[i] = rec.Hash
		if err := c.nodes[i%3].orders.Create(ctx, rec, nil); err != nil {
			t.Fatal(err)
		}
	}
	victim := c.nodes[1]
	var owned []common.Hash // the victim's orders
	for _, h := range hashes {
		if victim.member.Owner(order.KindName, h.Hex()) == victim.member.Address() {
			owned = append(owned, h)
		}
	}
	if len(owned) == 0 {
		t.Fatal("the victim owns none of the orders; choose more")
	}
	isOwned := map[common.Hash]bool{}
	for _, h := range owned {
		isOwned[h] = true
	}
	var done, ownedAfterKill atomic.Int32
	var dead atomic.Bool
	killAt := int32(orders * fills / 3)
	var killOnce sync.Once
	killed := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, orders)
	for _, h := range hashes {
		wg.Go(func() {
			for k := 1; k <= fills; k++ {
				if err := observeSomewhere(c, victim, h, k); err != nil {
					errs <- err
					return
				}
				if isOwned[h] && dead.Load() {
					ownedAfterKill.Add(1)
				}
				if done.Add(1) == killAt {
					killOnce.Do(func() {
						go func() {
							defer close(killed)
							dead.Store(true)
							c.killAfter(1, 500*time.Millisecond)
						}()
					})
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	<-killed
	if ownedAfterKill.Load() == 0 {
		t.Fatal("no request reached the victim's orders after it died")
	}
	c.waitMembers(2)
	for _, h := range hashes {
		rec, ok, err := journal.LoadOrder(h)
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", h.Hex(), ok, err)
		}
		if rec.Executions != fills || rec.FilledIn.Uint64() != fills || rec.Version != fills+1 {
			t.Fatalf("%s: executions %d, filledIn %s, version %d; want %d fills in %d versions",
				h.Hex(), rec.Executions, rec.FilledIn.Dec(), rec.Version, fills, fills+1)
		}
		ledger, err := journal.LoadLedger(h)
		if err != nil || len(ledger) != fills {
			t.Fatalf("%s: ledger %d entries, %v", h.Hex(), len(ledger), err)
		}
	}
	events, err := outbox.Scan("acc", 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range events {
		seen[e.Event.Data.OrderHash+" "+e.Event.Data.TxHash]++
	}
	if len(events) != orders*fills || len(seen) != orders*fills {
		t.Fatalf("%d events for %d distinct fills, want %d of each", len(events), len(seen), orders*fills)
	}
	// The victim's orders live on their new owners now.
	for _, h := range owned {
		owner := c.nodes[0].member.Owner(order.KindName, h.Hex())
		found := false
		for _, nd := range c.live() {
			if nd.member.Address() == owner {
				found = nd.orders.Live() > 0
			}
		}
		if owner == victim.member.Address() || !found {
			t.Fatalf("%s: owner %s after the victim left", h.Hex(), owner)
		}
	}
}

// observeSomewhere sends fill k of h through a random live member, as a
// load balancer would, within a 15 s deadline. A request that entered
// through the victim while it died is sent again through a survivor (the
// client's retry); any other failure is the test's.
func observeSomewhere(c *testCluster, victim *node, h common.Hash, k int) error {
	for {
		live := c.live()
		nd := live[rand.IntN(len(live))]
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		res, err := nd.orders.Observe(ctx, h, fill(h, k))
		cancel()
		if err == nil && res.Err == nil {
			return nil
		}
		if nd == victim {
			continue
		}
		if err == nil {
			err = res.Err
		}
		return fmt.Errorf("fill %d of %s through %s: %w", k, h.Hex(), nd.member.Address(), err)
	}
}
