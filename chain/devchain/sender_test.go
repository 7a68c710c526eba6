package devchain

import (
	"context"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/internal/syncbuf"
)

// TestOneSenderPerDevAccount runs the market maker on its timer while, at
// the same time, MoveTo moves the market, the in-process faucet pays from
// the deployer (the oracle writer), and two outside senders use the
// deployer's and the market maker's public keys over JSON-RPC (as
// `orderengine devnet faucet` does by default). Every call succeeds and the
// market maker logs no failed step: each account's in-process users share
// one sender, which moves past nonces taken from outside instead of
// failing with "nonce too low" or "replacement transaction underpriced".
func TestOneSenderPerDevAccount(t *testing.T) {
	cfg := testConfig()
	cfg.ManualMining = false
	cfg.BlockInterval = 100 * time.Millisecond
	cfg.MarketMaker.Enabled = true
	cfg.MarketMaker.Period = 50 * time.Millisecond
	logs := &syncbuf.Buffer{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := Start(ctx, cfg, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mm := d.MarketMaker()
	if mm.swaps != d.senderOf(d.accounts.MarketMaker) || mm.owner != d.deployer || d.deployer != d.senderOf(d.accounts.Deployer) {
		t.Fatal("an account has more than one in-process sender")
	}
	to := d.Accounts().Makers[0].Address
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	loop := func(n int, f func(i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				if err := f(i); err != nil {
					fail(err)
				}
			}
		}()
	}
	for _, sym := range []string{"WETH", "WBTC"} {
		tok, _ := d.Deployment().Token(sym)
		loop(8, func(i int) error {
			res, err := mm.MoveTo(ctx, sym, new(big.Int).Add(tok.PriceUSD, big.NewInt(int64(i%3-1)*tok.PriceUSD.Int64()/100)))
			if err != nil {
				return err
			}
			_, err = d.Mine(ctx, res.Txs...)
			return err
		})
	}
	loop(15, func(int) error {
		h, err := d.Faucet(ctx, to, common.Address{}, big.NewInt(1))
		if err != nil {
			return err
		}
		_, err = d.Mine(ctx, h)
		return err
	})
	for _, key := range []int{0, 1} { // deployer, market maker
		loop(8, func(int) error {
			_, err := RemoteFaucet(ctx, d.RPCURL(), d.ChainID(), DevKey(key), to, common.Address{}, big.NewInt(1))
			return err
		})
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	// Steps that overlapped the last sends have finished by the next
	// block after two periods.
	time.Sleep(3 * cfg.MarketMaker.Period)
	if _, err := d.Mine(ctx); err != nil {
		t.Fatal(err)
	}
	if out := logs.String(); strings.Contains(out, "level=WARN") {
		t.Fatalf("the market maker failed while the accounts were shared:\n%s", out)
	}
}
