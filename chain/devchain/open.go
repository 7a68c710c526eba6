package devchain

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"path/filepath"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// Conn is the engine's connection to its chain: the embedded dev chain or an
// external node.
type Conn struct {
	// Client reads and writes the chain.
	Client Client
	// ChainID is the chain's id, checked against the configuration.
	ChainID uint64
	// RPCURL is the JSON-RPC URL clients use (served by GET /v1/config):
	// the dev chain's server or the configured public URL. It may be empty
	// when the dev chain's RPC server is off.
	RPCURL string
	// RPC is the raw JSON-RPC client, for calls ethclient lacks (eth_call
	// with state overrides through gethclient). In dev mode it is dialled to
	// the dev chain's RPC server, nil when that server is off.
	RPC *rpc.Client
	// Dev is the embedded dev chain, nil with an external node. Its faucet
	// and market maker are reached through it.
	Dev *DevChain

	close func() error
}

// Close releases the connection (and stops the dev chain).
func (c *Conn) Close() error { return c.close() }

// DataDirName is the folder of the engine's data directory that holds the
// persisted dev chain (chain.devPersist).
const DataDirName = "devchain"

// Open connects the engine to its chain, the hook `serve` calls at start.
// With cfg.Chain.RPCURL empty (dev mode only) it starts the embedded dev
// chain (kept in <dataDir>/devchain with chain.devPersist), prints its banner (accounts with keys, dev only) to banner, and
// writes the deployment into cfg (chain addresses, pools, PublicRPCURL, the
// routing token registry's addresses). With an RPCURL it dials the node,
// checks its chain id against cfg.Chain.ChainID and that the router has
// code.
func Open(ctx context.Context, cfg *config.Config, logger *slog.Logger, banner io.Writer) (*Conn, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Chain.Validate(cfg.Dev); err != nil {
		return nil, err
	}
	if cfg.Chain.RPCURL != "" {
		return openExternal(ctx, cfg, logger)
	}
	opts := []Option{WithFeePolicy(cfg.Routing.FeePolicy)}
	if cfg.Chain.DevPersist {
		opts = append(opts, WithDataDir(filepath.Join(cfg.DataDir, DataDirName)))
	}
	d, err := Start(ctx, cfg.Chain, logger, opts...)
	if err != nil {
		return nil, err
	}
	d.Deployment().ApplyTo(cfg)
	cfg.Chain.ChainID = d.ChainID()
	cfg.Chain.PublicRPCURL = d.RPCURL()
	if banner != nil {
		if err := d.WriteBanner(banner); err != nil {
			_ = d.Close()
			return nil, fmt.Errorf("devchain: print banner: %w", err)
		}
	}
	conn := &Conn{Client: d.Client(), ChainID: d.ChainID(), RPCURL: d.RPCURL(), Dev: d, close: d.Close}
	if d.RPCURL() != "" {
		rc, err := rpc.DialContext(ctx, d.RPCURL())
		if err != nil {
			_ = d.Close()
			return nil, fmt.Errorf("devchain: dial the dev RPC server: %w", err)
		}
		conn.RPC = rc
		conn.close = func() error { rc.Close(); return d.Close() }
	}
	return conn, nil
}

func openExternal(ctx context.Context, cfg *config.Config, logger *slog.Logger) (*Conn, error) {
	want := cfg.Chain.ChainID
	if want == 0 {
		want = DefaultChainID
	}
	client, err := Dial(ctx, cfg.Chain.RPCURL, want)
	if err != nil {
		return nil, err
	}
	router := common.HexToAddress(cfg.Chain.Router)
	code, err := client.CodeAt(ctx, router, nil)
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("devchain: read code of router %s: %w", router.Hex(), scrubURL(err, cfg.Chain.RPCURL))
	}
	if len(code) == 0 {
		client.Close()
		return nil, fmt.Errorf("devchain: chain.router %s has no code on chain %d (deploy with `orderengine devnet deploy`)", router.Hex(), want)
	}
	public := cfg.Chain.PublicRPCURL
	if public == "" {
		public = cfg.Chain.RPCURL
	}
	logger.Info("connected to external node", "component", "devchain", "rpc", RedactURL(cfg.Chain.RPCURL), "chainId", want, "router", router)
	return &Conn{Client: client, RPC: client.Client(), ChainID: want, RPCURL: public,
		close: func() error { client.Close(); return nil }}, nil
}

// Dial connects to the node at rpcURL and checks that its chain id is
// chainID; a mismatch is an error naming both. Its errors name the node by
// RedactURL only.
func Dial(ctx context.Context, rpcURL string, chainID uint64) (*ethclient.Client, error) {
	rc, err := dialRPC(ctx, rpcURL)
	if err != nil {
		return nil, fmt.Errorf("devchain: dial %s: %w", RedactURL(rpcURL), scrubURL(err, rpcURL))
	}
	client := ethclient.NewClient(rc)
	got, err := client.ChainID(ctx)
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("devchain: chain id of %s: %w", RedactURL(rpcURL), scrubURL(err, rpcURL))
	}
	if got.Cmp(new(big.Int).SetUint64(chainID)) != 0 {
		client.Close()
		return nil, fmt.Errorf("devchain: node at %s has chain id %s, configuration expects %d (set chain.chainId or --chain-id)", RedactURL(rpcURL), got, chainID)
	}
	return client, nil
}

// dialRPC dials rpcURL. Over HTTP(S) the client is given the URL without
// its user info, path and query, and a transport that sends each request
// to the full URL: net/http quotes the request URL in every transport error
// (Post "https://host/v3/<key>": dial tcp ...), and those errors reach the
// logs of every subsystem that calls the node (the indexer logs one per
// failed poll while the node is down), so a provider key in the path or
// query would be written to the logs. Other schemes are dialled as given.
func dialRPC(ctx context.Context, rpcURL string) (*rpc.Client, error) {
	u, err := url.Parse(rpcURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return rpc.DialContext(ctx, rpcURL)
	}
	shown := u.Scheme + "://" + u.Host
	hc := &http.Client{Transport: &fullURLTransport{url: u, next: http.DefaultTransport}}
	return rpc.DialOptions(ctx, shown, rpc.WithHTTPClient(hc))
}

// fullURLTransport sends every request to url (user info as basic
// authentication), whatever URL the request was made for.
type fullURLTransport struct {
	url  *url.URL
	next http.RoundTripper
}

func (t *fullURLTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	u := *t.url
	if u.User != nil && r.Header.Get("Authorization") == "" {
		pw, _ := u.User.Password()
		r.SetBasicAuth(u.User.Username(), pw)
	}
	u.User = nil
	r.URL, r.Host = &u, u.Host
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, scrubURL(err, t.url.String())
	}
	return resp, nil
}

// ConnOf is a connection to a dev chain the caller started and stops
// itself (tests): closing the connection leaves the chain running.
func ConnOf(d *DevChain) *Conn {
	return &Conn{Client: d.Client(), ChainID: d.ChainID(), RPCURL: d.RPCURL(), Dev: d, close: func() error { return nil }}
}
