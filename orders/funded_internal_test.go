package orders

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/internal/clock"
)

// countingBalances is the dev chain's client, counting the calls made
// through it.
type countingBalances struct {
	Balances
	n atomic.Int64
}

func (c *countingBalances) CallContract(ctx context.Context, call ethereum.CallMsg, block *big.Int) ([]byte, error) {
	c.n.Add(1)
	return c.Balances.CallContract(ctx, call, block)
}

// prefetch reads many makers' balances and allowances in one multicall,
// and covers then answers from memory exactly what reading each pair on
// its own answers.
func TestPrefetchReadsManyMakersInOneCall(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default().Chain
	// No JSON-RPC listener: the default 127.0.0.1:8545 may be taken (a
	// `make run` on this machine, another test process).
	cfg.ManualMining, cfg.MarketMaker.Enabled, cfg.DevRPCListen = true, false, ""
	dc, err := devchain.Start(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	dep := dc.Deployment()
	if dep.Multicall == (common.Address{}) {
		t.Fatal("the dev chain has no multicall contract")
	}
	clk := clock.NewManual(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC))
	counting := &countingBalances{Balances: dc.Client()}
	f := newFundedCache(counting, dep.Router, dep.Multicall, time.Minute, clk)
	each := newFundedCache(dc.Client(), dep.Router, common.Address{}, time.Minute, clk)

	weth, _ := dep.Token("WETH")
	approveRouter(t, dc, dc.Accounts().Makers[0].Key, weth.Address, dep.Router) // one maker funded and approved
	var pairs [][2]common.Address
	for _, sym := range []string{"WETH", "USDC"} {
		tok, _ := dep.Token(sym)
		for _, m := range dc.Accounts().Makers { // holding tokens from the dev chain
			pairs = append(pairs, [2]common.Address{tok.Address, m.Address})
		}
		for range 20 { // never funded
			k, _ := crypto.GenerateKey()
			pairs = append(pairs, [2]common.Address{tok.Address, crypto.PubkeyToAddress(k.PublicKey)})
		}
	}
	f.prefetch(ctx, append(pairs, pairs[0])) // a pair twice is read once
	if n := counting.n.Load(); n != 1 {
		t.Fatalf("prefetch of %d pairs made %d calls, want 1", len(pairs), n)
	}
	funded := 0
	for _, p := range pairs {
		for _, amount := range []*uint256.Int{uint256.NewInt(0), uint256.NewInt(1), uint256.MustFromDecimal("1000000000000000000")} {
			got, ok1 := f.covers(ctx, p[0], p[1], amount)
			want, ok2 := each.covers(ctx, p[0], p[1], amount)
			if got != want || !ok1 || !ok2 {
				t.Fatalf("covers(%s, %s, %s): prefetched %v/%v, read alone %v/%v", p[0], p[1], amount, got, ok1, want, ok2)
			}
			if got && !amount.IsZero() {
				funded++
			}
		}
	}
	if funded == 0 {
		t.Fatal("no pair is funded: the comparison proves nothing")
	}
	if n := counting.n.Load(); n != 1 {
		t.Fatalf("covers after the prefetch made %d more calls", n-1)
	}
	f.prefetch(ctx, pairs) // all fresh: nothing to read
	if n := counting.n.Load(); n != 1 {
		t.Fatalf("a prefetch of fresh pairs made %d calls", n-1)
	}
}

// approveRouter sends and mines token.approve(router, max) from key.
func approveRouter(t *testing.T, dc *devchain.DevChain, key *ecdsa.PrivateKey, token, router common.Address) {
	t.Helper()
	ctx := context.Background()
	c := dc.Client()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := c.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	data := testtoken.NewTestToken().PackApprove(router, new(big.Int).Lsh(big.NewInt(1), 255))
	price := new(big.Int).Mul(head.BaseFee, big.NewInt(2))
	tx, err := types.SignTx(types.NewTransaction(nonce, token, nil, 3_000_000, price, data),
		types.LatestSignerForChainID(new(big.Int).SetUint64(dc.ChainID())), key)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if _, err := dc.Mine(ctx, tx.Hash()); err != nil {
		t.Fatal(err)
	}
}
