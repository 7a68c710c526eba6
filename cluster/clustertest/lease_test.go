package clustertest

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/cluster/natsjs"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/keeper"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// leaseTTL is the test cluster's cluster.leaseTTL.
const leaseTTL = time.Second

// chainCluster is three engine nodes in this process following one
// embedded dev chain (its blocks mined every 200 ms), each running the
// chain lifecycle with the dev keeper's key.
type chainCluster struct {
	t      *testing.T
	dev    *devchain.DevChain
	nodes  []*apptest.Server
	domain *chain.Domain
	router common.Address
	weth   common.Address
	usdc   common.Address
	vault  common.Address
	maker  devchain.Account
}

func startChainCluster(t *testing.T) *chainCluster {
	t.Helper()
	base := config.Default()
	cc := base.Chain
	cc.DevRPCListen, cc.BlockInterval = "", 200*time.Millisecond
	dev, err := devchain.Start(context.Background(), cc, nil, devchain.WithFeePolicy(base.Routing.FeePolicy))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dev.Close() })
	big := config.BucketLimits{Quote: 1 << 20, Read: 1 << 20, Order: 1 << 20}
	nodes := apptest.NewTestCluster(t, 3,
		apptest.WithTier(config.TierEnterprise, big),
		apptest.WithChain(func() *devchain.Conn { return devchain.ConnOf(dev) }),
		apptest.WithKeeperKey(dev.Accounts().Keeper.Key),
		apptest.WithConfig(func(c *config.Config) {
			dev.Deployment().ApplyTo(c)
			c.Chain.ChainID = dev.ChainID()
			c.Lifecycle.IndexerPoll, c.Lifecycle.KeeperPoll = 20*time.Millisecond, 50*time.Millisecond
			c.Limits.MakerSubmits = 1000
			c.Cluster.LeaseTTL = leaseTTL
		}))
	cfg := nodes[0].Config
	c := &chainCluster{t: t, dev: dev, nodes: nodes, maker: dev.Accounts().Makers[0],
		domain: chain.NewRouterDomain(dev.ChainID(), common.HexToAddress(cfg.Chain.Router)), router: common.HexToAddress(cfg.Chain.Router),
		vault: common.HexToAddress(cfg.Chain.FeeVault)}
	for sym, addr := range map[string]*common.Address{"WETH": &c.weth, "USDC": &c.usdc} {
		tk, ok := dev.Deployment().Token(sym)
		if !ok {
			t.Fatalf("no token %s", sym)
		}
		*addr = tk.Address
	}
	c.approve(c.maker.Key, c.weth)
	return c
}

// approve lets the router spend key's token and waits for it to be mined.
func (c *chainCluster) approve(key *ecdsa.PrivateKey, token common.Address) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := c.dev.Client()
	tt := testtoken.NewTestToken()
	opts := bind.NewKeyedTransactor(key, new(big.Int).SetUint64(c.dev.ChainID()))
	opts.Context = ctx
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	tx, err := bind.NewBoundContract(token, tt.GetABI(), client, client, client).RawTransact(opts, tt.PackApprove(c.router, max))
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.dev.Mine(ctx, tx.Hash()); err != nil {
		c.t.Fatal(err)
	}
}

// submit signs a limit order of the maker selling 0.01 WETH at 2,000 USDC
// per WETH (the dev market is near 3,000: keepers fill it at once) and
// posts it to node i.
func (c *chainCluster) submit(i int, salt uint64) common.Hash {
	c.t.Helper()
	return c.submitTraits(i, salt, chain.Traits{SlippagePpm: 50_000})
}

// submitTraits is submit with the order's traits.
func (c *chainCluster) submitTraits(i int, salt uint64, tr chain.Traits) common.Hash {
	c.t.Helper()
	ppm := config.Default().Routing.FeePolicy[config.KindLimit][config.ClassMajor].ReferralPpm
	traits, _ := chain.EncodeTraits(tr)
	o := chain.Order{Maker: c.maker.Address, Receiver: c.maker.Address, TokenIn: c.weth, TokenOut: c.usdc,
		Referrer: c.vault, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(salt)
	o.AmountIn.SetUint64(10_000_000_000_000_000)
	o.TriggerPrice.SetUint64(2_000_000_000)
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 18)
	h := chain.OrderHash(c.domain, &o)
	sig, err := crypto.Sign(h[:], c.maker.Key)
	if err != nil {
		c.t.Fatal(err)
	}
	sig[64] += 27
	body := fmt.Sprintf(`{"orderType":"limit","signature":"0x%s","orderHash":"%s","order":{"salt":"0x%s","maker":"%s","receiver":"%s",`+
		`"tokenIn":"%s","tokenOut":"%s","amountIn":"%s","triggerPrice":"%s","makerTraits":"%s","referrer":"%s","referralFeePpm":%d}}`,
		hex.EncodeToString(sig), h.Hex(), hex.EncodeToString(o.Salt.Bytes()), o.Maker.Hex(), o.Receiver.Hex(), o.TokenIn.Hex(),
		o.TokenOut.Hex(), o.AmountIn.Dec(), o.TriggerPrice.Dec(), traits.Dec(), c.vault.Hex(), ppm)
	s := c.nodes[i]
	if r := s.Do("POST", "/v1/orders", []byte(body), map[string]string{"X-API-Key": s.APIKey}); r.Status != 201 {
		c.t.Fatalf("submit on node %d: %d %s", i, r.Status, r.Body)
	}
	return h
}

// status reads order h's status on node i.
func (c *chainCluster) status(i int, h common.Hash) string {
	s := c.nodes[i]
	r := s.Do("GET", "/v1/orders/"+h.Hex(), nil, map[string]string{"X-API-Key": s.APIKey})
	var body struct {
		Status string `json:"status"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &body) != nil {
		return fmt.Sprintf("answer %d", r.Status)
	}
	return body.Status
}

// driverSampler records, every millisecond, which nodes drive the chain
// lifecycle: how often more than one did, and when each drove last.
type driverSampler struct {
	mu      sync.Mutex
	overlap int
	last    map[int]time.Time
	stop    context.CancelFunc
	done    chan struct{}
}

func sampleDrivers(nodes []*apptest.Server) *driverSampler {
	ctx, stop := context.WithCancel(context.Background())
	d := &driverSampler{last: map[int]time.Time{}, stop: stop, done: make(chan struct{})}
	go func() {
		defer close(d.done)
		for ctx.Err() == nil {
			n, now := 0, time.Now()
			d.mu.Lock()
			for i, s := range nodes {
				if !s.System.Driving() {
					continue
				}
				n++
				d.last[i] = now
			}
			if n > 1 {
				d.overlap++
			}
			d.mu.Unlock()
			time.Sleep(time.Millisecond)
		}
	}()
	return d
}

func (d *driverSampler) finish() {
	d.stop()
	<-d.done
}

// drivers returns the indexes of the nodes driving now.
func (c *chainCluster) drivers(live func(int) bool) []int {
	var out []int
	for i, s := range c.nodes {
		if live(i) && s.System.Driving() {
			out = append(out, i)
		}
	}
	return out
}

// journalEvents reads order h's transitions from its stream and counts its
// events by trigger and its fill ledger entries by chain log.
func journalEvents(t *testing.T, s *apptest.Server, h common.Hash) (map[string]int, map[string]int) {
	t.Helper()
	js, err := jetstream.New(s.System.ClusterNode().Conn())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := natsjs.Partition(h, s.System.ClusterNode().OrderPartitions())
	stream, err := js.Stream(ctx, "ORDERS_"+fmt.Sprint(p))
	if err != nil {
		t.Fatal(err)
	}
	subj := fmt.Sprintf("orders.%d.%s", p, hex.EncodeToString(h[:]))
	events, fills := map[string]int{}, map[string]int{}
	for seq := uint64(1); ; {
		// The subject's first message at or after seq.
		msg, err := stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subj))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return events, fills
		}
		if err != nil {
			t.Fatalf("order %s: read its stream: %v", h.Hex(), err)
		}
		tr, err := orderstore.DecodeTransition(msg.Data)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range tr.Events {
			events[ev.Trigger]++
		}
		for _, e := range tr.Ledger {
			if e.Kind == orderstore.LedgerFill {
				fills[fmt.Sprintf("%s/%d", e.TxHash.Hex(), e.LogIndex)]++
			}
		}
		seq = msg.Sequence + 1
	}
}

// TestLifecycleLeaseHandover: of three nodes following one chain, exactly
// one drives the chain lifecycle at any moment (it holds the lease), and
// its metrics say so. The driver fills a first batch of orders with its
// keeper; with a second batch submitted, the driver is closed (it stops
// its loops and releases the lease). A test holder races the standbys for
// the released lease (it polls, they try every quarter TTL). When it
// wins, no node drives while it renews: a third batch is filled on the
// chain by an outside keeper through a live node's keeper list, every
// node indexes the fills and none records them; then the test holder dies
// without a release. A standby takes over, projects every block since it
// last drove, and fills the rest. Every order ends filled, read the same
// on both live nodes, and its records in the journal carry exactly one
// order.filled event and one ledger entry per fill. The takeover times
// are logged.
func TestLifecycleLeaseHandover(t *testing.T) {
	c := startChainCluster(t)
	var closed atomic.Int32
	closed.Store(-1)
	live := func(i int) bool { return int(closed.Load()) != i }
	samples := sampleDrivers(c.nodes)
	var driver int
	c.nodes[0].WaitFor("one node driving the chain lifecycle", func() bool {
		d := c.drivers(live)
		if len(d) == 1 {
			driver = d[0]
		}
		return len(d) == 1
	})
	for i, s := range c.nodes {
		want := "orderengine_lifecycle_driver 0"
		if i == driver {
			want = "orderengine_lifecycle_driver 1"
		}
		if m := s.Raw(s.AdminURL, "GET", "/metrics", nil, nil); !strings.Contains(string(m.Body), want) {
			t.Fatalf("node %d's metrics lack %q: %d %s", i, want, m.Status, m.Body)
		}
	}

	var hashes []common.Hash
	for i := range 4 {
		hashes = append(hashes, c.submit(i%3, uint64(1000+i)))
	}
	for _, h := range hashes {
		c.nodes[driver].WaitFor("the first batch filled", func() bool { return c.status(driver, h) == "filled" })
	}
	for i := range 4 {
		hashes = append(hashes, c.submit((driver+1+i%2)%3, uint64(2000+i)))
	}

	// Close the driver while the second batch is being filled; a test
	// holder races the standbys for the released lease (it polls, they
	// try every quarter TTL).
	standby := (driver + 1) % 3
	ghost := c.nodes[standby].System.ClusterNode().Lease("lifecycle", "test-ghost", leaseTTL)
	ghostCtx, stopGhost := context.WithCancel(context.Background())
	defer stopGhost()
	dieCtx, die := context.WithCancel(context.Background())
	defer die()
	ghostWon, renewing := make(chan struct{}), make(chan struct{})
	var renewed atomic.Int64 // unix nanoseconds of the test holder's last acquire or renewal
	var ghostAt time.Time    // when its acquire returned (read after ghostWon)
	go func() {
		defer close(renewing)
		for ghostCtx.Err() == nil {
			start := time.Now()
			if ok, _ := ghost.Acquire(ghostCtx); ok {
				renewed.Store(start.UnixNano())
				ghostAt = time.Now()
				close(ghostWon)
				break
			}
			if int(closed.Load()) == driver && len(c.drivers(live)) > 0 {
				return // a standby took it
			}
			time.Sleep(2 * time.Millisecond)
		}
		if ghostCtx.Err() != nil {
			return
		}
		// It renews until the test lets it die (it never releases).
		tick := time.NewTicker(leaseTTL / 4)
		defer tick.Stop()
		for {
			select {
			case <-dieCtx.Done():
				return
			case <-tick.C:
			}
			start := time.Now()
			if err := ghost.Renew(dieCtx); err != nil && dieCtx.Err() == nil {
				t.Errorf("the test holder's renewal: %v", err)
				return
			}
			renewed.Store(start.UnixNano())
		}
	}()
	closed.Store(int32(driver))
	c.nodes[driver].Close()
	won := false
	c.nodes[standby].WaitFor("the released lease taken", func() bool {
		select {
		case <-ghostWon:
			won = true
			return true
		default:
			return len(c.drivers(live)) == 1
		}
	})
	if won {
		samples.mu.Lock()
		t.Logf("graceful release: the test holder took the lease %v after node%d released it",
			ghostAt.Sub(samples.last[driver]).Round(time.Millisecond), driver)
		samples.mu.Unlock()
		// No node drives while the test holder renews: a third batch is
		// filled on the chain by an outside keeper, every node indexes the
		// fills, and no node records them.
		t.Logf("the test holder took the released lease: no node drives while it renews")
		var third []common.Hash
		for i := range 4 {
			third = append(third, c.submit((driver+1+i%2)%3, uint64(3000+i)))
		}
		hashes = append(hashes, third...)
		deadline := time.Now().Add(20 * time.Second)
		for !c.fillsIndexed(third, live) {
			if time.Now().After(deadline) {
				t.Fatal("the outside keeper's fills were not indexed")
			}
			c.fillOutside(live)
			if d := c.drivers(live); len(d) != 0 {
				t.Fatalf("node %v drives while the test holder holds the lease", d)
			}
			time.Sleep(100 * time.Millisecond)
		}
		die()
		<-renewing
		for i := range c.nodes {
			for _, h := range third {
				if live(i) && c.status(i, h) == "filled" {
					t.Fatalf("node %d recorded a fill of %s while no node drove", i, h.Hex())
				}
			}
		}
		// The test holder dies: it never renews again.
		c.nodes[standby].WaitFor("a standby driving", func() bool { return len(c.drivers(live)) == 1 })
		t.Logf("killed holder: node%d drove %v after the holder's last renewal (TTL %v)", c.drivers(live)[0],
			time.Since(time.Unix(0, renewed.Load())).Round(time.Millisecond), leaseTTL)
	} else {
		stopGhost()
		c.nodes[standby].WaitFor("a standby driving", func() bool { return len(c.drivers(live)) == 1 })
		samples.mu.Lock()
		t.Logf("graceful release: node%d drove %v after node%d released the lease", c.drivers(live)[0],
			time.Since(samples.last[driver]).Round(time.Millisecond), driver)
		samples.mu.Unlock()
	}

	took := time.Now()
	for i := range c.nodes {
		if !live(i) {
			continue
		}
		for _, h := range hashes {
			c.nodes[i].WaitFor("every order filled", func() bool { return c.status(i, h) == "filled" })
		}
	}
	t.Logf("catch-up: every order read filled on both live nodes %v after the takeover", time.Since(took).Round(time.Millisecond))
	samples.finish()
	if samples.overlap > 0 {
		t.Fatalf("two nodes drove at once in %d samples", samples.overlap)
	}
	reader := c.nodes[standby]
	for _, h := range hashes {
		events, fills := journalEvents(t, reader, h)
		if events[persistence.TriggerOrderFilled] != 1 || len(fills) != 1 {
			t.Fatalf("order %s: events %v, fill ledger entries %v; want one order.filled and one fill", h.Hex(), events, fills)
		}
		for log, n := range fills {
			if n != 1 {
				t.Fatalf("order %s: fill %s recorded %d times", h.Hex(), log, n)
			}
		}
	}
}

// fillOutside runs an outside keeper (a dev maker's account) once over a
// live node's keeper list: it executes the listed orders whatever node
// drives.
func (c *chainCluster) fillOutside(live func(int) bool) {
	c.t.Helper()
	var s *apptest.Server
	for i, n := range c.nodes {
		if live(i) {
			s = n
			break
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := keeper.NewRunner(c.dev.Client(), c.dev.Accounts().Makers[1].Key, keeper.HTTPSource(s.URL, s.APIKey, nil), keeper.RunnerOptions{})
	if _, err := r.Sweep(ctx); err != nil {
		c.t.Fatalf("outside keeper: %v", err)
	}
}

// fillsIndexed reports whether every live node's index holds a fill of
// every order of hashes.
func (c *chainCluster) fillsIndexed(hashes []common.Hash, live func(int) bool) bool {
	for i, s := range c.nodes {
		if !live(i) {
			continue
		}
		for _, h := range hashes {
			fills, err := s.System.Chain.Fills(h)
			if err != nil {
				c.t.Fatal(err)
			}
			if len(fills) == 0 {
				return false
			}
		}
	}
	return true
}
