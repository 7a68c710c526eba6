package main

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/internal/testport"
)

// TestDevnetServeFeedsAnExternalNode: `devnet serve` runs the dev chain
// on its own and writes the nodes' configuration and the dev keeper's key;
// a serve started with that file, --rpc-url and lifecycle.keeperKeyFile
// (production mode: an external node) serves the deployed addresses in
// GET /v1/config and fills an order end to end with its in-process keeper.
// When the chain stops, its configuration file is removed.
func TestDevnetServeFeedsAnExternalNode(t *testing.T) {
	dir := t.TempDir()
	chainFile, keyFile := filepath.Join(dir, "chain.json"), filepath.Join(dir, "keeper.key")
	listen := testport.Addr(t)
	_, port, _ := net.SplitHostPort(listen)
	public := "http://chain.test:" + port // a container's service name
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, done := startDevnetServe(t, ctx, chainFile, "--listen", listen, "--memory", "--block-interval", "100ms",
		"--config-out", chainFile, "--keeper-key-out", keyFile, "--log-level", "warn", "--public-rpc-url", public)
	c := clustertest.ReadContracts(t, chainFile)
	if c.RPCURL != "http://"+listen || c.Router == (common.Address{}) || c.Tokens["WETH"].Address == "" {
		t.Fatalf("the nodes' configuration: %+v", c)
	}
	// The RPC server answers requests addressed to the public URL's host
	// name (and IP addresses), not to any name (DNS rebinding).
	for host, want := range map[string]int{"chain.test:" + port: 200, listen: 200, "other.test:" + port: 403} {
		if code := rpcStatus(t, listen, host); code != want {
			t.Fatalf("JSON-RPC addressed to %s: %d, want %d", host, code, want)
		}
	}
	if !strings.Contains(out.String(), c.Router.Hex()) {
		t.Fatalf("the configuration is not on stdout:\n%s", out.String())
	}
	st, err := os.Stat(keyFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("keeper key file: %v, mode %v", err, st)
	}
	k, err := readKeyFile(keyFile)
	if err != nil || crypto.PubkeyToAddress(k.PublicKey) != devchain.DevAccounts(0).Keeper.Address {
		t.Fatalf("keeper key file holds another key (%v)", err)
	}

	data := t.TempDir()
	r := startServe(t, data, "--config", chainFile, "--rpc-url", "http://"+listen, "--lifecycle-keeper-key-file", keyFile)
	var cfg struct {
		Router, FeeVault common.Address
		RPCURL           string `json:"rpcUrl"`
	}
	base := "http://" + r.pub
	getJSON(t, base+"/v1/config", "", &cfg)
	if cfg.Router != c.Router || cfg.FeeVault != c.FeeVault || cfg.RPCURL != public {
		t.Fatalf("GET /v1/config %+v, the chain deployed %+v", cfg, c)
	}
	key := adminIssueKey(t, r.adm, data)
	maker := clustertest.Maker(0)
	c.Approve(t, maker, "WETH")
	body, h := c.Sign(t, clustertest.Fillable(maker, 1))
	if code := send(t, "POST", base+"/v1/orders", key, body); code != 201 {
		t.Fatalf("submit: %d", code)
	}
	var rec struct{ Status string }
	for deadline := time.Now().Add(time.Minute); rec.Status != "filled"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the order is %q after a minute, want filled", rec.Status)
		}
		getJSON(t, base+"/v1/orders/"+h.Hex(), key, &rec)
	}
	r.stop(t)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("devnet serve: %v", err)
	}
	if _, err := os.Stat(chainFile); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the configuration of a stopped chain is still there: %v", err)
	}
}

// startDevnetServe runs `devnet serve` with args in-process until ctx
// ends, and waits until it has written file. It returns its stdout and
// its result.
func startDevnetServe(t *testing.T, ctx context.Context, file string, args ...string) (*syncbuf.Buffer, <-chan error) {
	t.Helper()
	out, logs := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	env := &cliEnv{stdout: out, stderr: logs, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	done := make(chan error, 1)
	go func() { done <- run(ctx, env, append([]string{"devnet", "serve"}, args...)) }()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(file); err == nil {
			return out, done
		}
		select {
		case err := <-done:
			t.Fatalf("devnet serve exited: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("devnet serve wrote no %s:\n%s", file, logs.String())
		}
	}
}

// rpcStatus is the status of an eth_chainId call to the server at listen,
// addressed (Host) to host.
func rpcStatus(t *testing.T, listen, host string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+listen, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// devnet serve refuses a listen address without a fixed port (the nodes
// are given the port) and stray arguments, before starting anything.
func TestDevnetServeRefusesBadFlags(t *testing.T) {
	env := &cliEnv{stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	for _, args := range [][]string{
		{"devnet", "serve", "--listen", "127.0.0.1:0"},
		{"devnet", "serve", "--listen", "8545"},
		{"devnet", "serve", "extra"},
		{"devnet", "serve", "--data-dir", ""},
		{"devnet", "serve", "--rpc-url", "chain:8545"},
	} {
		if err := run(context.Background(), env, args); err == nil || !strings.Contains(err.Error(), "devnet serve") {
			t.Errorf("%v: %v, want a devnet serve error", args, err)
		}
	}
}
