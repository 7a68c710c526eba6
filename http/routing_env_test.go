package http_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/routing"
)

// routingEnv serves the routing endpoints as serve does: the embedded dev
// chain (manual mining, market maker off, JSON-RPC on loopback) with the
// contracts deployed and seeded, the routing stack built by routing.Setup
// from the configuration the chain fills (every chain read and eth_call
// verification over the node's JSON-RPC endpoint), and the test server
// (Pebble in a temp dir, Fiber on loopback) with the stack behind the
// routing routes.
type routingEnv struct {
	t      *testing.T
	ctx    context.Context
	dc     *devchain.DevChain
	st     *routing.Stack
	srv    *apptest.Server
	cfg    config.Config
	tokens map[string]common.Address
}

// newRoutingEnv starts the environment; volumes ranks the token search (nil:
// zero volumes), opts adjust the test server.
func newRoutingEnv(t *testing.T, volumes routing.VolumeSource, opts ...apptest.Option) *routingEnv {
	t.Helper()
	dc, st, cfg := devRouting(t, func(_ *devchain.DevChain, raw *rpc.Client) routing.SetupDeps {
		return routing.SetupDeps{Chain: ethclient.NewClient(raw), RPC: raw, Volumes: volumes}
	})
	ctx := context.Background()
	opts = append([]apptest.Option{apptest.WithServices(apihttp.Services{Routing: apihttp.NewRoutingService(st.Service)})}, opts...)
	e := &routingEnv{t: t, ctx: ctx, dc: dc, st: st, srv: apptest.NewTestServer(t, opts...), cfg: cfg, tokens: map[string]common.Address{}}
	for _, tk := range dc.Deployment().Tokens {
		e.tokens[tk.Symbol] = tk.Address
	}
	return e
}

// tok is the address of a deployed token, EIP-55.
func (e *routingEnv) tok(symbol string) string {
	e.t.Helper()
	a, ok := e.tokens[symbol]
	if !ok {
		e.t.Fatalf("no deployed token %s", symbol)
	}
	return a.Hex()
}

// send signs data to `to` as the maker, mines a block and fails on a revert.
func (e *routingEnv) send(maker devchain.Account, to common.Address, data []byte) {
	e.t.Helper()
	opts := bind.NewKeyedTransactor(maker.Key, new(big.Int).SetUint64(e.dc.ChainID()))
	opts.Context = e.ctx
	c := e.dc.Client()
	tx, err := bind.NewBoundContract(to, abi.ABI{}, c, c, c).RawTransact(opts, data)
	if err != nil {
		e.t.Fatalf("send to %s: %v", to.Hex(), err)
	}
	e.dc.Commit()
	r, err := c.TransactionReceipt(e.ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("tx to %s failed: %v", to.Hex(), err)
	}
}

// fundedMaker returns a dev maker holding amount of token and approving
// the router for it, with the venue cache advanced past those blocks.
func (e *routingEnv) fundedMaker(symbol string, amount *big.Int) devchain.Account {
	e.t.Helper()
	maker := e.dc.Accounts().Makers[0]
	token := e.tokens[symbol]
	h, err := e.dc.Faucet(e.ctx, maker.Address, token, amount)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.dc.Mine(e.ctx, h); err != nil {
		e.t.Fatal(err)
	}
	e.send(maker, token, testtoken.NewTestToken().PackApprove(e.dc.Deployment().Router, amount))
	if err := e.st.Venues.Advance(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	return maker
}

// getJSON sends GET path (validated against the OpenAPI document, no
// undeclared field), checks the status and decodes the body into out.
func (e *routingEnv) getJSON(path string, status int, out any) *apptest.Response {
	e.t.Helper()
	r := e.srv.GetStrict(path)
	if r.Status != status {
		e.t.Fatalf("GET %s: %d %s, want %d", path, r.Status, r.Body, status)
	}
	if out != nil {
		if err := json.Unmarshal(r.Body, out); err != nil {
			e.t.Fatalf("GET %s: %v", path, err)
		}
	}
	return r
}

// wantError sends GET path and checks the error status and code.
func (e *routingEnv) wantError(path string, status int, code orderengine.Code) *apptest.Response {
	e.t.Helper()
	r := e.srv.GetStrict(path)
	if r.Status != status || r.Code() != string(code) {
		e.t.Errorf("GET %s: %d %s, want %d %s", path, r.Status, r.Body, status, code)
	}
	return r
}

// big1e18 is n whole tokens of 18 decimals.
func big1e18(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
