package accounts

import (
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
)

const sample = "api.example.org wants you to sign in with your Ethereum account:\n" +
	"0x62229A328bC62Db3FaBE0C11f24AB067fb036875\n\n" +
	"Sign in to the orderengine dashboard.\n\n" +
	"URI: https://api.example.org/\nVersion: 1\nChain ID: 4663\nNonce: Xq3Lm9TfR2vKp8Wz4NcB7hJd\n" +
	"Issued At: 2026-11-26T20:14:03Z\nExpiration Time: 2026-11-26T20:24:03Z\nNot Before: 2026-11-26T20:14:00Z\n" +
	"Request ID: r-1\nResources:\n- https://api.example.org/docs\n- ipfs://bafy"

// Every field of EIP-4361 is parsed, and String writes the same text.
func TestParseMessageRoundTrips(t *testing.T) {
	m, err := ParseMessage(sample)
	if err != nil {
		t.Fatal(err)
	}
	if m.Domain != "api.example.org" || m.Address != common.HexToAddress("0x62229A328bC62Db3FaBE0C11f24AB067fb036875") ||
		m.Statement != "Sign in to the orderengine dashboard." || m.URI != "https://api.example.org/" || m.Version != "1" ||
		m.ChainID != 4663 || m.Nonce != "Xq3Lm9TfR2vKp8Wz4NcB7hJd" || !m.IssuedAt.Equal(time.Date(2026, 11, 26, 20, 14, 3, 0, time.UTC)) ||
		m.ExpirationTime.IsZero() || m.NotBefore.IsZero() || m.RequestID != "r-1" || len(m.Resources) != 2 {
		t.Fatalf("parsed %+v", m)
	}
	if got := m.String(); got != sample {
		t.Fatalf("String:\n%s\nwant\n%s", got, sample)
	}
	// No statement: three line feeds (EIP-4361), or the two some libraries write.
	for _, text := range []string{
		"a.example wants you to sign in with your Ethereum account:\n0x62229A328bC62Db3FaBE0C11f24AB067fb036875\n\n\nURI: https://a.example\nVersion: 1\nChain ID: 1\nNonce: 12345678\nIssued At: 2026-11-26T20:14:03Z",
		"https://a.example wants you to sign in with your Ethereum account:\n0x62229A328bC62Db3FaBE0C11f24AB067fb036875\n\nURI: https://a.example\nVersion: 1\nChain ID: 1\nNonce: 12345678\nIssued At: 2026-11-26T20:14:03Z",
	} {
		m, err := ParseMessage(text)
		if err != nil || m.Statement != "" || m.Domain != "a.example" || m.ChainID != 1 {
			t.Fatalf("%q: %+v %v", text, m, err)
		}
	}
}

// A message off the grammar is INVALID_REQUEST naming what is wrong.
func TestParseMessageIsStrict(t *testing.T) {
	for name, c := range map[string]struct{ from, to, want string }{
		"CRLF":                {"\n", "\r\n", "CRLF"},
		"lowercase address":   {"0x62229A328bC62Db3FaBE0C11f24AB067fb036875", "0x62229a328bc62db3fabe0c11f24ab067fb036875", "EIP-55"},
		"bad header":          {"wants you to sign in", "wants to sign in", "first line"},
		"missing URI":         {"URI: https://api.example.org/\n", "", "URI"},
		"chain id not a num":  {"Chain ID: 4663", "Chain ID: x", "Chain ID"},
		"short nonce":         {"Xq3Lm9TfR2vKp8Wz4NcB7hJd", "abc", "Nonce"},
		"nonce with symbols":  {"Xq3Lm9TfR2vKp8Wz4NcB7hJd", "Xq3Lm9TfR2vK-8Wz4NcB7hJd", "Nonce"},
		"bad time":            {"2026-11-26T20:14:03Z\nExp", "yesterday\nExp", "Issued At"},
		"fields out of order": {"Version: 1\nChain ID: 4663", "Chain ID: 4663\nVersion: 1", "Version"},
		"trailing line":       {"- ipfs://bafy", "- ipfs://bafy\nextra", "unexpected line"},
		"two-line statement":  {"Sign in to the orderengine dashboard.\n", "Sign in\nto the dashboard.\n", "statement"},
		"domain with a path":  {"api.example.org wants", "api.example.org/x wants", "domain"},
	} {
		text := strings.Replace(sample, c.from, c.to, 1)
		if name == "CRLF" {
			text = strings.ReplaceAll(sample, c.from, c.to)
		}
		_, err := ParseMessage(text)
		if e := orderengine.AsError(err); err == nil || e.Code != orderengine.CodeInvalidRequest || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: %v, want INVALID_REQUEST naming %q", name, err, c.want)
		}
	}
	if _, err := ParseMessage(strings.Repeat("x", maxMessage+1)); err == nil {
		t.Error("an oversized message was parsed")
	}
}

// A nonce is used once, until it expires; past the cap the oldest go.
func TestNonces(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	n := newNonces(time.Minute, 3)
	a, _ := n.issue(now)
	if len(a) != 24 || !alphanumeric(a) {
		t.Fatalf("nonce %q", a)
	}
	if !n.use(a, now) || n.use(a, now) {
		t.Fatal("a nonce is not single use")
	}
	b, _ := n.issue(now)
	if n.use(b, now.Add(time.Minute)) {
		t.Fatal("an expired nonce was accepted")
	}
	first, _ := n.issue(now)
	for range 3 {
		n.issue(now)
	}
	if n.use(first, now) {
		t.Fatal("the oldest nonce outlived the cap")
	}
	if len(n.exp) > 3 {
		t.Fatalf("%d nonces held, cap 3", len(n.exp))
	}
}
