package devchain

import (
	"bytes"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/orderengine/orderengine/config"
)

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://mainnet.example/v3/0123456789abcdef":      "https://mainnet.example/…",
		"https://user:secret@node.example:8545":            "https://node.example:8545",
		"wss://node.example/ws?apikey=secret":              "wss://node.example/…",
		"http://127.0.0.1:8545":                            "http://127.0.0.1:8545",
		"http://127.0.0.1:8545/":                           "http://127.0.0.1:8545",
		"/var/run/geth.ipc":                                "/var/run/geth.ipc",
		"https://[::1]:8545/#frag":                         "https://[::1]:8545/…",
		"node.example:8545/v3/secret?x=1":                  "<unparsable RPC URL>",
		"https://user:secret@node.example/v3/secret?k=sec": "https://node.example/…",
	} {
		if got := RedactURL(raw); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestExternalNodeURLNotDisclosed: a provider key in chain.rpcURL (user
// info, path or query) appears neither in the start-up log of an external
// node nor in the error of a node that cannot be reached.
func TestExternalNodeURLNotDisclosed(t *testing.T) {
	d := startTest(t, testConfig())
	ctx := testCtx(t)
	host := strings.TrimPrefix(d.RPCURL(), "http://")
	var logs bytes.Buffer
	ext := config.Default()
	d.Deployment().ApplyTo(&ext)
	ext.Chain.RPCURL = "http://user:pw-SECRET@" + host + "/?apikey=KEY-SECRET"
	c, err := Open(ctx, &ext, slog.New(slog.NewTextHandler(&logs, nil)), nil)
	if err != nil {
		t.Fatalf("external Open: %v", err)
	}
	c.Close()
	if out := logs.String(); strings.Contains(out, "SECRET") || !strings.Contains(out, "connected to external node") || !strings.Contains(out, host) {
		t.Fatalf("start-up log:\n%s", out)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	_ = ln.Close()
	for _, u := range []string{
		"http://user:pw-SECRET@" + closed + "/v3/KEY-SECRET",
		"http://" + closed + "/v3/KEY-SECRET?token=Q-SECRET",
	} {
		_, err := Dial(ctx, u, 4663)
		if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), closed) {
			t.Errorf("dial %s: %v", RedactURL(u), err)
		}
	}
}

// TestNodeErrorsAtRunTimeDoNotDiscloseTheURL dials the dev node through a
// recording reverse proxy with a provider key in the user info and the
// query: the node must receive the full URL (path, query, basic
// authentication), and once the node is unreachable the errors of later
// calls, which the indexer and the keeper log, must not carry the key.
func TestNodeErrorsAtRunTimeDoNotDiscloseTheURL(t *testing.T) {
	d := startTest(t, testConfig())
	ctx := testCtx(t)
	node, err := url.Parse(d.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pw, _ := r.BasicAuth()
		mu.Lock()
		seen = append(seen, r.URL.RequestURI()+" "+user+":"+pw)
		mu.Unlock()
		httputil.NewSingleHostReverseProxy(node).ServeHTTP(w, r)
	}))
	host := strings.TrimPrefix(proxy.URL, "http://")
	client, err := Dial(ctx, "http://user:pw-SECRET@"+host+"/?apikey=KEY-SECRET", 4663)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	mu.Lock()
	first := seen[0]
	mu.Unlock()
	if first != "/?apikey=KEY-SECRET user:pw-SECRET" {
		t.Fatalf("the node was asked %q", first)
	}
	proxy.Close() // the node is now unreachable
	_, err = client.BlockNumber(ctx)
	if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), host) {
		t.Fatalf("call to an unreachable node: %v", err)
	}
}
