package devchain

import (
	"bytes"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/orderengine/orderengine"
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
	ext := orderengine.Default()
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
