package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/internal/testport"
)

type running struct {
	pub, adm string
	stdout   *syncbuf.Buffer
	stderr   *syncbuf.Buffer // the log (level warn)
	cancel   context.CancelFunc
	done     chan error
}

// startServe runs serve on dir with free loopback ports and waits until it
// is healthy. A port found free can be taken by another test process before
// serve binds it, so a start that fails with "address already in use" is
// tried again on new ports.
func startServe(t *testing.T, dir string, extra ...string) *running {
	t.Helper()
	for attempt := 1; ; attempt++ {
		r, err := tryServe(t, dir, extra)
		if err == nil {
			return r
		}
		if !strings.Contains(err.Error(), "address already in use") || attempt == 5 {
			t.Fatal(err)
		}
	}
}

func tryServe(t *testing.T, dir string, extra []string) (*running, error) {
	t.Helper()
	r := &running{pub: testport.Addr(t), adm: testport.Addr(t), stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	env := &cliEnv{stdout: r.stdout, stderr: r.stderr, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	args := []string{"serve", "--data-dir", dir, "--http-listen", r.pub, "--http-admin-listen", r.adm, "--log-level", "warn",
		"--chain-dev-rpc-listen", "127.0.0.1:0"}
	args = append(args, extra...)
	go func() { r.done <- run(ctx, env, args) }()
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer wcancel()
	for {
		req, _ := http.NewRequestWithContext(wctx, "GET", "http://"+r.pub+"/healthz", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == 200 {
				return r, nil
			}
		}
		select {
		case err := <-r.done:
			cancel()
			return nil, fmt.Errorf("serve exited: %v", err)
		case <-wctx.Done():
			cancel()
			<-r.done
			return nil, fmt.Errorf("serve not ready: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// stop sends the equivalent of SIGTERM and waits for a clean exit.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	if err := <-r.done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
}

func get(t *testing.T, url, key string) int { return send(t, "GET", url, key, nil) }

// send makes one request with key (none when empty) and returns its status.
func send(t *testing.T, method, url, key string, body []byte) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// indexerStatus is the indexer part of GET /v1/stats.
type indexerStatus struct {
	Indexer struct{ Head, Cursor uint64 }
}

// waitIndexed polls GET /v1/stats until the indexer's cursor reaches block.
func waitIndexed(t *testing.T, base, key string, block uint64) {
	t.Helper()
	var st indexerStatus
	for deadline := time.Now().Add(30 * time.Second); st.Indexer.Cursor < block; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the indexer did not reach block %d: %+v", block, st)
		}
		getJSON(t, base+"/v1/stats", key, &st)
	}
}

var keyRe = regexp.MustCompile(`export KEY=(svc_[0-9A-Za-z]+)`)

func TestServeDevKeyAdminAndGracefulRestart(t *testing.T) {
	dir := t.TempDir()
	r := startServe(t, dir)
	m := r.devKeyMatch(t)
	if m == nil || !accountstore.WellFormedAPIKey(m[1]) {
		t.Fatalf("no dev key printed:\n%s", r.stdout.String())
	}
	devKey := m[1]
	checkDevRPC(t, "http://"+r.pub)
	checkRouting(t, "http://"+r.pub, devKey)
	if code := get(t, "http://"+r.pub+"/v1/stats", devKey); code != 200 { // market data is served (lifecycle)
		t.Fatalf("dev key: %d", code)
	}

	// The admin client, reading the token from the data directory.
	var out bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	base := []string{"--admin-url", "http://" + r.adm, "--data-dir", dir}
	if err := run(context.Background(), env, append([]string{"admin", "create-account", "--name", "acme", "--tier", "builder"}, base...)); err != nil {
		t.Fatalf("create-account: %v\n%s", err, out.String())
	}
	var acct struct{ ID, Tier string }
	if err := json.Unmarshal(out.Bytes(), &acct); err != nil || acct.Tier != "builder" {
		t.Fatalf("create-account output %q: %v", out.String(), err)
	}
	out.Reset()
	if err := run(context.Background(), env, append([]string{"admin", "issue-key", "--account", acct.ID}, base...)); err != nil {
		t.Fatalf("issue-key: %v", err)
	}
	var issued struct {
		Key    string
		Record struct{ ID string }
	}
	if err := json.Unmarshal(out.Bytes(), &issued); err != nil || !accountstore.WellFormedAPIKey(issued.Key) {
		t.Fatalf("issue-key output %q: %v", out.String(), err)
	}
	for _, args := range [][]string{
		{"admin", "list-keys", "--account", acct.ID},
		{"admin", "set-tier", "--account", acct.ID, "--tier", "enterprise", "--quote", "1", "--read", "2", "--order", "3"},
		{"admin", "list-accounts"},
	} {
		out.Reset()
		if err := run(context.Background(), env, append(args, base...)); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
	}
	out.Reset()
	if err := run(context.Background(), env, append([]string{"admin", "reissue-key", "--key", issued.Record.ID}, base...)); err != nil {
		t.Fatalf("reissue-key: %v", err)
	}
	if code := get(t, "http://"+r.pub+"/v1/stats", issued.Key); code != 401 {
		t.Fatalf("old key after reissue: %d", code)
	}
	// A wrong token is refused.
	bad := append([]string{"admin", "list-accounts", "--token", "nope"}, base...)
	if err := run(context.Background(), env, bad); err == nil {
		t.Fatal("admin call with a wrong token succeeded")
	}

	r.stop(t)
	// Pebble was closed cleanly: the directory opens again, and the dev key
	// is not printed a second time but still works.
	r = startServe(t, dir)
	if code := get(t, "http://"+r.pub+"/v1/stats", devKey); code != 200 { // market data is served (lifecycle)
		t.Fatalf("dev key after restart: %d", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "admin.token")); err != nil {
		t.Fatal(err)
	}
	r.stop(t) // serve has returned: all it printed is in stdout
	if strings.Contains(r.stdout.String(), "export KEY=") {
		t.Fatal("dev key printed again on restart")
	}
}

// With an external node, a data folder whose orders and chain data come
// from another chain (here another dev chain with the same id, genesis and
// contract addresses: they differ from chain.deployBlock on) is refused at
// start, naming both block hashes.
func TestServeRefusesAnotherChainsDataFolder(t *testing.T) {
	ctx := context.Background()
	started := time.Now()
	external := func() []string {
		ccfg := config.Default().Chain
		ccfg.DevRPCListen, ccfg.MarketMaker.Enabled, ccfg.BlockInterval = "127.0.0.1:0", false, 20*time.Millisecond
		dc, err := devchain.Start(ctx, ccfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = dc.Close() })
		dep := dc.Deployment()
		tokens, _ := json.Marshal(dep.RegistryTokens(config.Default().Routing.Tokens))
		return []string{"--chain-rpc-url", dc.RPCURL(), "--chain-router", dep.Router.Hex(), "--chain-oracle", dep.Oracle.Hex(),
			"--chain-fee-vault", dep.FeeVault.Hex(), "--chain-deploy-block", fmt.Sprint(dep.Block), "--routing-tokens", string(tokens)}
	}
	dir := t.TempDir()
	first := external()
	r := startServe(t, dir, first...)
	// With an external node production mode is the default: no dev mode
	// warning (an explicit dev=true gets one, below).
	if strings.Contains(r.stderr.String(), "dev mode set explicitly with an external node") {
		t.Fatalf("dev mode on an external node without asking for it:\n%s", r.stderr.String())
	}
	waitIndexed(t, "http://"+r.pub, adminIssueKey(t, r.adm, dir), 5)
	r.stop(t)
	// With an external node no development key is created or printed.
	if strings.Contains(r.stdout.String(), "export KEY=") || strings.Contains(r.stdout.String(), "DEVELOPMENT API KEY") {
		t.Fatalf("dev key printed with an external node:\n%s", r.stdout.String())
	}

	// Block times are whole seconds: a chain started in the same second
	// from the same keys would hash the same.
	time.Sleep(time.Until(started.Add(1100 * time.Millisecond)))
	if _, err := tryServe(t, dir, external()); err == nil || !strings.Contains(err.Error(), "another chain") {
		t.Fatalf("serve on another chain's data folder: %v", err)
	}
	// The node it was made with is still accepted; dev mode asked for by
	// name relaxes the webhook targets to loopback, and serve says so.
	r = startServe(t, dir, append(first, "--dev=true")...)
	if !strings.Contains(r.stderr.String(), "dev mode set explicitly with an external node") {
		t.Fatalf("no warning about dev mode on an external node:\n%s", r.stderr.String())
	}
	r.stop(t)
}

// -h prints a command's flags and is not an error (exit status 0).
func TestHelpIsNotAnError(t *testing.T) {
	for _, args := range [][]string{{"serve", "-h"}, {"-h"}, {"keeper", "-h"}, {"help"}} {
		var out bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &out, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
		if err := run(context.Background(), env, args); err != nil || out.Len() == 0 {
			t.Fatalf("%v: %v, %d bytes printed", args, err, out.Len())
		}
	}
}

// With http.shutdownDelay, the first signal makes /readyz answer 503 while
// the listeners keep serving, so a load balancer takes the instance out of
// rotation before the drain; then serve exits cleanly.
func TestServeShutdownDelayTurnsNotReadyFirst(t *testing.T) {
	r := startServe(t, t.TempDir(), "--http-shutdown-delay", "3s")
	base := "http://" + r.pub
	poll := func(what string, want int) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for get(t, base+"/readyz", "") != want {
			if time.Now().After(deadline) {
				t.Fatalf("/readyz never answered %d %s", want, what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	poll("after the start", 200)
	r.cancel()
	poll("after the signal", 503)
	if code := get(t, base+"/healthz", ""); code != 200 {
		t.Fatalf("/healthz during the delay: %d (the listener must stay open)", code)
	}
	if err := <-r.done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
}

// An ORDERENGINE_* variable that names no setting is a warning naming it
// and the nearest setting, and serve starts: Kubernetes sets such
// variables for a Service named orderengine (ORDERENGINE_PORT, ...).
func TestServeWarnsOfUnknownEnvironmentVariables(t *testing.T) {
	logs := &syncbuf.Buffer{}
	env := &cliEnv{stdout: io.Discard, stderr: logs, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry(),
		environ: func() []string {
			return []string{"HOME=/root", "ORDERENGINE_HTTP_LISTN=0.0.0.0:80", "ORDERENGINE_PORT=tcp://10.0.0.1:8080"}
		}}
	// A cancelled context: serve stops while starting its chain, after the
	// check; only a refusal because of the variables would fail here.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := run(ctx, env, []string{"serve", "--data-dir", t.TempDir(), "--http-listen", testport.Addr(t),
		"--http-admin-listen", testport.Addr(t), "--chain-dev-rpc-listen", "127.0.0.1:0", "--log-level", "warn"})
	if err != nil && strings.Contains(err.Error(), "environment variable") {
		t.Fatalf("serve refused the unknown variables: %v", err)
	}
	out := logs.String()
	for _, want := range []string{"ORDERENGINE_HTTP_LISTN (did you mean ORDERENGINE_HTTP_LISTEN?)", "ORDERENGINE_PORT"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no warning naming %s:\n%s", want, out)
		}
	}
}

// A public port already in use is one error naming the setting and the
// address (serve returns it; main exits 1).
func TestServeOnABusyPortNamesTheSetting(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	env := &cliEnv{stdout: io.Discard, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	err = run(context.Background(), env, []string{"serve", "--data-dir", t.TempDir(), "--http-listen", busy.Addr().String(),
		"--http-admin-listen", testport.Addr(t), "--chain-dev-rpc-listen", "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "http.listen") || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("serve on a busy port: %v", err)
	}
}

func TestUnknownCommand(t *testing.T) {
	env := &cliEnv{stdout: io.Discard, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	if err := run(context.Background(), env, []string{"frobnicate"}); exitCode(err) != 2 {
		t.Fatalf("unknown command: %v, exit %d, want 2", err, exitCode(err))
	}
	if err := run(context.Background(), env, nil); exitCode(err) != 2 {
		t.Fatalf("no command: %v, exit %d, want 2", err, exitCode(err))
	}
	if err := run(context.Background(), env, []string{"admin", "nope"}); err == nil {
		t.Fatal("unknown admin command accepted")
	}
}

// checkDevRPC reads the RPC URL that GET /v1/config publishes in dev mode
// and asks that node for its chain id over JSON-RPC.
func checkDevRPC(t *testing.T, base string) {
	t.Helper()
	resp, err := http.Get(base + "/v1/config")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		RPCURL string `json:"rpcUrl"`
		Router string `json:"router"`
	}
	err = json.NewDecoder(resp.Body).Decode(&cfg)
	_ = resp.Body.Close()
	if err != nil || !strings.HasPrefix(cfg.RPCURL, "http://127.0.0.1:") || cfg.Router == "" {
		t.Fatalf("/v1/config rpcUrl %q router %q: %v", cfg.RPCURL, cfg.Router, err)
	}
	rpc, err := http.Post(cfg.RPCURL, "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer rpc.Body.Close()
	var out struct{ Result string }
	if err := json.NewDecoder(rpc.Body).Decode(&out); err != nil || out.Result != "0x1237" {
		t.Fatalf("eth_chainId at %s = %q (%v), want 0x1237 (4663)", cfg.RPCURL, out.Result, err)
	}
}

// getJSON GETs path with the key and decodes a 200 answer into out.
func getJSON(t *testing.T, url, key string, out any) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("GET %s: %v in %s", url, err, body)
	}
}

// checkRouting proves serve wires the routing stack: the token search finds
// the dev chain's tokens and a route prices WETH→USDC with fee legs.
func checkRouting(t *testing.T, base, key string) {
	t.Helper()
	addr := map[string]string{}
	for _, sym := range []string{"WETH", "USDC"} {
		var list struct {
			Tokens []struct{ Address, Symbol string }
		}
		getJSON(t, base+"/v1/tokens?search="+sym, key, &list)
		for _, tok := range list.Tokens {
			if tok.Symbol == sym {
				addr[sym] = tok.Address
			}
		}
		if addr[sym] == "" {
			t.Fatalf("/v1/tokens?search=%s: %+v", sym, list.Tokens)
		}
	}
	var route struct {
		AmountOut string `json:"amountOut"`
		FeeLegs   struct {
			Vault string `json:"vault"`
		} `json:"feeLegs"`
	}
	getJSON(t, base+"/v1/route?tokenIn="+addr["WETH"]+"&tokenOut="+addr["USDC"]+"&amountIn=1000000000000000000&orderType=limit", key, &route)
	out, ok := new(big.Int).SetString(route.AmountOut, 10)
	if !ok || out.Sign() <= 0 || route.FeeLegs.Vault == "" {
		t.Fatalf("route WETH→USDC: amountOut %q vault %q", route.AmountOut, route.FeeLegs.Vault)
	}
}

// adminIssueKey creates an account through the admin API at adm (host:port)
// with the token serve wrote into dir, and returns a fresh key of it.
func adminIssueKey(t *testing.T, adm, dir string) string {
	t.Helper()
	token, err := os.ReadFile(filepath.Join(dir, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	call := func(path string, body []byte, out any) {
		t.Helper()
		req, _ := http.NewRequest("POST", "http://"+adm+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 201 || json.Unmarshal(data, out) != nil {
			t.Fatalf("admin %s: %d %s", path, resp.StatusCode, data)
		}
	}
	var acct struct{ ID string }
	call("/admin/v1/accounts", []byte(`{"name":"test","tier":"free"}`), &acct)
	var issued struct{ Key string }
	call("/admin/v1/accounts/"+acct.ID+"/keys", nil, &issued)
	return issued.Key
}
