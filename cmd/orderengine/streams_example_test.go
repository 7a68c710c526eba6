package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/big"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// streamsExample holds the EventSource examples (docs/webhooks.md, "The
// order stream"; docs/lifecycle.md, "The keeper stream").
const streamsExample = "../../docs/examples/streams"

// nodeScript is a running example script and the JSON lines it printed.
type nodeScript struct {
	cmd   *exec.Cmd
	done  chan error
	mu    sync.Mutex
	lines []map[string]any
	raw   strings.Builder
}

// startScript runs node script in the streams example with env.
func startScript(t *testing.T, node, script string, env ...string) *nodeScript {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	s := &nodeScript{cmd: exec.CommandContext(ctx, node, script), done: make(chan error, 1)}
	s.cmd.Dir, s.cmd.Env = streamsExample, append(os.Environ(), env...)
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stderr = &s.raw
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				s.mu.Lock()
				s.lines = append(s.lines, line)
				s.mu.Unlock()
			}
		}
		_, _ = io.Copy(io.Discard, out)
		s.done <- s.cmd.Wait()
	}()
	return s
}

// step returns the first line printed with step name (nil: none yet).
func (s *nodeScript) step(name string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.lines {
		if l["step"] == name {
			return l
		}
	}
	return nil
}

// wait waits for the script to exit 0.
func (s *nodeScript) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case err := <-s.done:
		if err != nil {
			s.mu.Lock()
			defer s.mu.Unlock()
			t.Fatalf("%s: %v\nlines %v\nstderr %s", what, err, s.lines, s.raw.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s did not exit", what)
	}
}

// TestStreamExamples runs the EventSource examples against serve on the
// embedded dev chain, its dev keeper off: keeper.mjs follows the keeper
// stream with the dev keeper's account and fills a limit order of maker-1
// from the streamed transaction; follow.mjs follows the account's orders
// and prints the order.filled event.
func TestStreamExamples(t *testing.T) {
	node := exampleNode(t, streamsExample, "eventsource")
	r := startServe(t, t.TempDir(), "--lifecycle-dev-keeper=false")
	defer r.stop(t)
	m := r.devKeyMatch(t)
	if m == nil {
		t.Fatalf("no dev key printed:\n%s", r.stdout.String())
	}
	base, apiKey := "http://"+r.pub, m[1]
	env := []string{"BASE_URL=" + base, "API_KEY=" + apiKey, "EXIT_AFTER=1", "RPC_URL="}
	follower := startScript(t, node, "follow.mjs", env...)
	keeperKey := devchain.DevKey(2) // the dev chain's keeper account
	keeperRun := startScript(t, node, "keeper.mjs", append(env, "KEEPER_KEY=0x"+hex.EncodeToString(crypto.FromECDSA(keeperKey)))...)
	deadline := time.Now().Add(time.Minute)
	for follower.step("connected") == nil || keeperRun.step("snapshot") == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the examples did not connect: %s %s", follower.raw.String(), keeperRun.raw.String())
		}
		time.Sleep(20 * time.Millisecond)
	}

	var cfg struct {
		RPCURL   string `json:"rpcUrl"`
		ChainID  uint64 `json:"chainId"`
		Router   string `json:"router"`
		FeeVault string `json:"feeVault"`
	}
	getJSON(t, base+"/v1/config", apiKey, &cfg)
	token := func(symbol string) devchain.Token {
		var list struct {
			Tokens []devchain.Token `json:"tokens"`
		}
		getJSON(t, base+"/v1/tokens?search="+symbol, apiKey, &list)
		for _, tk := range list.Tokens {
			if tk.Symbol == symbol {
				return tk
			}
		}
		t.Fatalf("no token %s", symbol)
		return devchain.Token{}
	}
	weth, usdc := token("WETH"), token("USDC")
	router := common.HexToAddress(cfg.Router)

	// maker-1 (prefunded with WETH) approves the router.
	maker := devchain.DevKey(3)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, err := ethclient.DialContext(ctx, cfg.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	opts := bind.NewKeyedTransactor(maker, new(big.Int).SetUint64(cfg.ChainID))
	opts.Context = ctx
	tt := testtoken.NewTestToken()
	tx, err := bind.NewBoundContract(weth.Address, tt.GetABI(), client, client, client).RawTransact(opts, tt.PackApprove(router, new(big.Int).Lsh(big.NewInt(1), 255)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bind.WaitMined(ctx, client, tx.Hash()); err != nil {
		t.Fatal(err)
	}
	ppm := config.Default().Routing.FeePolicy["limit"][config.ClassMajor].ReferralPpm
	body, h := signedLimit(chain.NewRouterDomain(cfg.ChainID, router), maker, weth, usdc, common.HexToAddress(cfg.FeeVault), ppm, uint64(time.Now().UnixNano()))
	if code := send(t, "POST", base+"/v1/orders", apiKey, body); code != 201 {
		t.Fatalf("submit: %d", code)
	}

	keeperRun.wait(t, "keeper.mjs")
	follower.wait(t, "follow.mjs")
	if s := keeperRun.step("sent"); s == nil || s["orderHash"] != h.Hex() {
		t.Fatalf("keeper.mjs sent %v, want order %s", s, h.Hex())
	}
	if s := keeperRun.step("removed"); s == nil || s["orderHash"] != h.Hex() || s["reason"] != "filled" {
		t.Fatalf("keeper.mjs saw %v, want %s removed as filled", s, h.Hex())
	}
	if s := follower.step("event"); s == nil || s["event"] != "order.filled" || s["orderHash"] != h.Hex() || !strings.HasPrefix(s["id"].(string), "evt_") {
		t.Fatalf("follow.mjs printed %v, want the order.filled of %s", s, h.Hex())
	}
	var rec struct{ Status string }
	getJSON(t, base+"/v1/orders/"+h.Hex(), apiKey, &rec)
	if rec.Status != "filled" {
		t.Fatalf("order %s is %s", h.Hex(), rec.Status)
	}
}
