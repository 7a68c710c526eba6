package main

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// devSession is what a test reads off a serve running on the embedded dev
// chain: its base URL, the dev key, the served chain and two tokens.
type devSession struct {
	base, key string
	cfg       struct {
		ChainID  uint64         `json:"chainId"`
		Router   common.Address `json:"router"`
		FeeVault common.Address `json:"feeVault"`
		RPCURL   string         `json:"rpcUrl"`
	}
	tokens map[string]devchain.Token
}

func readSession(t *testing.T, base, key string) *devSession {
	t.Helper()
	s := &devSession{base: base, key: key, tokens: map[string]devchain.Token{}}
	getJSON(t, base+"/v1/config", key, &s.cfg)
	for _, sym := range []string{"WETH", "USDC"} {
		var list struct{ Tokens []devchain.Token }
		getJSON(t, base+"/v1/tokens?search="+sym, key, &list)
		s.tokens[sym] = list.Tokens[0]
	}
	return s
}

// order signs a WETH→USDC limit order of a fresh maker.
func (s *devSession) order(salt uint64) ([]byte, common.Hash) {
	maker, _ := crypto.GenerateKey()
	ppm := config.Default().Routing.FeePolicy["limit"][config.ClassMajor].ReferralPpm
	return signedLimit(chain.NewRouterDomain(s.cfg.ChainID, s.cfg.Router), maker, s.tokens["WETH"], s.tokens["USDC"], s.cfg.FeeVault, ppm, salt)
}

// chainState is what the test compares across a restart: a block of the
// chain by number and hash, and balances at that block.
type chainState struct {
	block       uint64
	hash        common.Hash
	native, erc *big.Int
}

// readChain reads, over the dev chain's JSON-RPC, block number at (the
// head when zero) with its hash, the market maker's native balance (it
// pays gas every step) and maker-1's USDC balance at that block.
func (s *devSession) readChain(t *testing.T, at uint64) chainState {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := ethclient.DialContext(ctx, s.cfg.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if at == 0 {
		if at, err = c.BlockNumber(ctx); err != nil {
			t.Fatal(err)
		}
	}
	n := new(big.Int).SetUint64(at)
	h, err := c.HeaderByNumber(ctx, n)
	if err != nil {
		t.Fatalf("block %d: %v", at, err)
	}
	accts := devchain.DevAccounts(1)
	native, err := c.BalanceAt(ctx, accts.MarketMaker.Address, n)
	if err != nil {
		t.Fatal(err)
	}
	tt := testtoken.NewTestToken()
	erc, err := bind.Call(tt.Instance(c, s.tokens["USDC"].Address), &bind.CallOpts{Context: ctx, BlockNumber: n},
		tt.PackBalanceOf(accts.Makers[0].Address), tt.UnpackBalanceOf)
	if err != nil {
		t.Fatal(err)
	}
	return chainState{block: at, hash: h.Hash(), native: native, erc: erc}
}

// TestDevChainSurvivesARestart: `make run` twice on one data folder. The
// embedded dev chain is kept in the folder: after the restart the order
// submitted before is still there, the chain goes on from the same blocks
// (same hash at the block read before the stop, same balances there, the
// head past it), the indexer continues instead of starting over, and the
// banner says the chain was continued.
func TestDevChainSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	fast := []string{"--chain-block-interval", "50ms"}
	began := time.Now()
	r := startServe(t, dir, fast...)
	firstStart := time.Since(began)
	m := r.devKeyMatch(t)
	if m == nil {
		t.Fatalf("no dev key printed:\n%s", r.stdout.String())
	}
	s := readSession(t, "http://"+r.pub, m[1])
	if !strings.Contains(r.stdout.String(), "new chain in ") {
		t.Fatalf("the banner does not say where the chain is kept:\n%s", r.stdout.String())
	}
	body, h := s.order(11)
	if code := send(t, "POST", s.base+"/v1/orders", s.key, body); code != 201 {
		t.Fatalf("submit: %d", code)
	}
	waitIndexed(t, s.base, s.key, 30)
	before := s.readChain(t, 0)
	var st indexerStatus
	getJSON(t, s.base+"/v1/stats", s.key, &st)
	cursor := st.Indexer.Cursor
	r.stop(t)

	began = time.Now()
	r = startServe(t, dir, fast...)
	restart := time.Since(began)
	t.Logf("serve healthy after %v on a new data folder, %v on the restart", firstStart.Round(time.Millisecond), restart.Round(time.Millisecond))
	s.base = "http://" + r.pub
	getJSON(t, s.base+"/v1/config", s.key, &s.cfg) // the dev RPC port is new
	if code := get(t, s.base+"/v1/orders/"+h.Hex(), s.key); code != 200 {
		t.Fatalf("the order after the restart: %d, want 200", code)
	}
	after := s.readChain(t, before.block)
	if after.hash != before.hash || after.native.Cmp(before.native) != 0 || after.erc.Cmp(before.erc) != 0 {
		t.Fatalf("block %d after the restart: %+v, before: %+v", before.block, after, before)
	}
	if head := s.readChain(t, 0); head.block < before.block {
		t.Fatalf("the head after the restart %d is behind %d", head.block, before.block)
	}
	getJSON(t, s.base+"/v1/stats", s.key, &st)
	if st.Indexer.Cursor < cursor {
		t.Fatalf("the indexer started over: cursor %d, was %d", st.Indexer.Cursor, cursor)
	}
	body2, _ := s.order(12)
	if code := send(t, "POST", s.base+"/v1/orders", s.key, body2); code != 201 {
		t.Fatalf("submit after the restart: %d", code)
	}
	waitIndexed(t, s.base, s.key, before.block+10)
	r.stop(t)
	if !strings.Contains(r.stdout.String(), "continued from ") || strings.Contains(r.stdout.String(), "export KEY=") {
		t.Fatalf("restart banner:\n%s", r.stdout.String())
	}
	if strings.Contains(r.stderr.String(), "clearing") {
		t.Fatalf("chain-bound records were cleared on the restart:\n%s", r.stderr.String())
	}
}

// TestDevChainInMemoryStartsFresh: with chain.devPersist off the dev chain
// lives in memory, as the banner says: a restart is a new chain, the
// previous run's orders and indexer state are cleared (the indexer would
// otherwise wait for blocks the new chain reaches only later), the dev key
// is kept.
func TestDevChainInMemoryStartsFresh(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--chain-block-interval", "20ms", "--chain-dev-persist=false"}
	r := startServe(t, dir, args...)
	m := r.devKeyMatch(t)
	if m == nil {
		t.Fatalf("no dev key printed:\n%s", r.stdout.String())
	}
	if !strings.Contains(r.stdout.String(), "kept in memory (chain.devPersist=false): a restart starts a new chain") {
		t.Fatalf("the banner does not say the chain is in memory:\n%s", r.stdout.String())
	}
	s := readSession(t, "http://"+r.pub, m[1])
	body, h := s.order(7)
	submit := func() int { return send(t, "POST", s.base+"/v1/orders", s.key, body) }
	if code := submit(); code != 201 {
		t.Fatalf("submit: %d", code)
	}
	waitIndexed(t, s.base, s.key, 60)
	r.stop(t)

	r = startServe(t, dir, args...)
	defer r.stop(t)
	s.base = "http://" + r.pub
	var st indexerStatus
	getJSON(t, s.base+"/v1/stats", s.key, &st)
	if st.Indexer.Cursor > st.Indexer.Head {
		t.Fatalf("after the restart the indexer is ahead of the new chain: %+v", st)
	}
	if code := get(t, s.base+"/v1/orders/"+h.Hex(), s.key); code != 404 {
		t.Fatalf("the previous run's order after the restart: %d, want 404", code)
	}
	if code := submit(); code != 201 {
		t.Fatalf("the same order on the new chain: %d, want 201", code)
	}
}

// TestDevChainSurvivesKill9: the real binary on the embedded dev chain,
// killed with SIGKILL while it mines (no shutdown, no journal written),
// restarts on the same data folder with the chain where it was: the block
// read before the kill has the same hash and balances, and the order
// submitted before is there.
func TestDevChainSurvivesKill9(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	args := []string{"--data-dir", dir, "--chain-block-interval", "50ms"}
	p := startProcess(t, ctx, args...)
	var key string
	for deadline := time.Now().Add(10 * time.Second); key == ""; time.Sleep(10 * time.Millisecond) {
		if m := keyRe.FindStringSubmatch(p.out.String()); m != nil {
			key = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no dev key printed:\n%s", p.out.String())
		}
	}
	s := readSession(t, "http://"+p.pub, key)
	body, h := s.order(21)
	if code := send(t, "POST", s.base+"/v1/orders", s.key, body); code != 201 {
		t.Fatalf("submit: %d", code)
	}
	waitIndexed(t, s.base, s.key, 20)
	before := s.readChain(t, 0)
	time.Sleep(200 * time.Millisecond) // a few more blocks mined past it
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()

	p = startProcess(t, ctx, args...)
	s.base = "http://" + p.pub
	getJSON(t, s.base+"/v1/config", s.key, &s.cfg)
	if code := get(t, s.base+"/v1/orders/"+h.Hex(), s.key); code != 200 {
		t.Fatalf("the order after SIGKILL and restart: %d, want 200", code)
	}
	after := s.readChain(t, before.block)
	if after.hash != before.hash || after.native.Cmp(before.native) != 0 || after.erc.Cmp(before.erc) != 0 {
		t.Fatalf("block %d after SIGKILL and restart: %+v, before: %+v", before.block, after, before)
	}
	waitIndexed(t, s.base, s.key, before.block+5)
	if !strings.Contains(p.out.String(), "continued from ") {
		t.Fatalf("restart banner:\n%s", p.out.String())
	}
}
