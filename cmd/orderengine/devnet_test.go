package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// TestDevnetDeployAndFaucet runs `devnet deploy` and `devnet faucet`
// against the embedded dev chain's JSON-RPC server (a node that mines on
// its timer, like any external node): the printed snippet is a chain
// section whose contracts have code, and the faucet mints.
func TestDevnetDeployAndFaucet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := config.Default().Chain
	cfg.DevRPCListen = "127.0.0.1:0"
	cfg.BlockInterval = 50 * time.Millisecond
	cfg.MarketMaker.Enabled = false
	d, err := devchain.Start(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	keyFile := filepath.Join(t.TempDir(), "deployer.key")
	deployer := d.Accounts().Makers[0]
	if err := os.WriteFile(keyFile, []byte(deployer.KeyHex()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}

	// A wrong chain id is refused before anything is sent.
	err = run(ctx, env, []string{"devnet", "deploy", "--rpc-url", d.RPCURL(), "--key-file", keyFile, "--chain-id", "1337", "--liquidity-divisor", "100"})
	if err == nil || !strings.Contains(err.Error(), "chain id 4663") {
		t.Fatalf("deploy with chain id 1337 to a 4663 node: %v", err)
	}
	out.Reset()
	if err := run(ctx, env, []string{"devnet", "deploy", "--rpc-url", d.RPCURL(), "--key-file", keyFile, "--liquidity-divisor", "100"}); err != nil {
		t.Fatalf("devnet deploy: %v", err)
	}
	var snippet devnetSnippet
	if err := json.Unmarshal(out.Bytes(), &snippet); err != nil {
		t.Fatalf("snippet %q: %v", out.String(), err)
	}
	c, err := ethclient.DialContext(ctx, d.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if snippet.Chain.RPCURL != d.RPCURL() || snippet.Chain.ChainID != 4663 || snippet.Chain.FeeVault != deployer.Address.Hex() {
		t.Fatalf("snippet chain %+v", snippet.Chain)
	}
	for _, a := range []string{snippet.Chain.Router, snippet.Chain.Oracle, snippet.Chain.Executor} {
		if code, err := c.CodeAt(ctx, common.HexToAddress(a), nil); err != nil || len(code) == 0 {
			t.Fatalf("%s has no code (%v)", a, err)
		}
	}
	if len(snippet.Chain.Pools) < 3 {
		t.Fatalf("snippet pools %d", len(snippet.Chain.Pools))
	}
	var usdc common.Address
	for _, tok := range snippet.Routing.Tokens {
		if tok.Address == "" {
			t.Fatalf("token %s without address", tok.Symbol)
		}
		if tok.Symbol == "USDC" {
			usdc = common.HexToAddress(tok.Address)
		}
	}
	if devUSDC, _ := d.Deployment().Token("USDC"); usdc == devUSDC.Address || usdc == (common.Address{}) {
		t.Fatal("devnet deploy reused the dev chain's USDC")
	}

	// Faucet over the RPC with the dev deployer key (the default).
	to := crypto.PubkeyToAddress(devnetTestKey(t).PublicKey)
	out.Reset()
	if err := run(ctx, env, []string{"devnet", "faucet", "--rpc-url", d.RPCURL(), "--to", to.Hex(), "--token", usdc.Hex(), "--amount", "4242"}); err != nil {
		t.Fatalf("devnet faucet: %v", err)
	}
	tt := testtoken.NewTestToken()
	bal, err := bind.Call(tt.Instance(c, usdc), &bind.CallOpts{Context: ctx}, tt.PackBalanceOf(to), tt.UnpackBalanceOf)
	if err != nil || bal.Cmp(big.NewInt(4242)) != 0 {
		t.Fatalf("faucet balance %v %v, want 4242", bal, err)
	}
}

func devnetTestKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}
