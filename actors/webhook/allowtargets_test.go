package webhook_test

import (
	"encoding/json"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
)

// TestAllowTargetsOpensListedRangesOnly: outside dev mode, with
// webhooks.allowTargets 127.0.0.1/32, a receiver on 127.0.0.1 is accepted
// over plain http and its ping is delivered; loopback addresses outside
// the list (::1, 127.0.0.2) and every other internal range stay refused,
// link-local and cloud metadata included.
func TestAllowTargetsOpensListedRangesOnly(t *testing.T) {
	s := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) {
		c.Dev = false
		c.Webhooks.MaxEndpoints = 10
		c.Webhooks.Timeout = 500 * time.Millisecond
		c.Webhooks.AllowTargets = []string{"127.0.0.1/32"}
	}))
	rc := newReceiver(t, nil)
	port := rc.srv.URL[strings.LastIndex(rc.srv.URL, ":")+1:]
	expectRefused(t, s, internalTargets...)
	expectRefused(t, s, "https://[::1]:"+port+"/hook", "http://[::1]:"+port+"/hook",
		"http://127.0.0.2:"+port+"/hook", "http://93.184.216.34/hook")
	for _, u := range []string{"http://127.0.0.1:" + port + "/hook", "http://[::ffff:127.0.0.1]:" + port + "/hook"} {
		r := createTarget(s, u)
		if r.Status != 201 {
			t.Fatalf("%s: %d %s, want 201", u, r.Status, r.Body)
		}
		var ep struct{ ID string }
		if err := json.Unmarshal(r.Body, &ep); err != nil {
			t.Fatal(err)
		}
		if d := pingAndWait(t, s, ep.ID); d.ResponseCode == nil || *d.ResponseCode != 200 || d.Status != "delivered" {
			t.Fatalf("%s: delivery %+v", u, d)
		}
	}
	if rc.count() != 2 {
		t.Fatalf("the receiver got %d requests, want the 2 pings", rc.count())
	}
}

// TestAllowTargetsPolicy checks the policy of an allowed private range:
// plain http and https to it are accepted, a name with one address outside
// it is refused, a name that rebinds from the range to loopback is refused
// at the dial, and the metadata and link-local addresses stay refused even
// when a policy lists them.
func TestAllowTargetsPolicy(t *testing.T) {
	res := &fakeResolver{answers: map[string][]netip.Addr{}}
	res.set("hooks.corp.example", "10.1.2.3")
	res.set("split.corp.example", "10.1.2.3", "192.168.1.1")
	p := webhook.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, Resolver: res}
	for _, u := range []string{"http://10.9.9.9:9000/hook", "https://10.9.9.9/hook", "http://hooks.corp.example/x", "http://[::ffff:10.0.0.1]/x"} {
		if _, err := p.CheckURL(t.Context(), u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	for _, u := range []string{"http://split.corp.example/x", "https://split.corp.example/x", "https://172.16.0.1/x", "http://11.0.0.1/x",
		"http://93.184.216.34/x", "https://127.0.0.1/x", "https://169.254.169.254/latest"} {
		if _, err := p.CheckURL(t.Context(), u); !errors.Is(err, webhook.ErrTargetRefused) {
			t.Errorf("%s accepted: %v", u, err)
		}
	}

	// Rebinding: the name moves from the allowed range to loopback, where a
	// listener waits; the dial refuses it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	res.set("hooks.corp.example", "127.0.0.1")
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	c, err := p.DialContext(&net.Dialer{Timeout: time.Second})(t.Context(), "tcp", net.JoinHostPort("hooks.corp.example", port))
	if err == nil {
		_ = c.Close()
	}
	if !errors.Is(err, webhook.ErrTargetRefused) {
		t.Fatalf("dial after rebinding to loopback: err %v, want a refusal", err)
	}

	// A policy built with the never-allowed ranges listed (configuration
	// refuses them) still refuses them.
	wide := webhook.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}, Resolver: res}
	for _, u := range []string{"http://169.254.169.254/latest", "https://169.254.170.2/v2", "http://[fd00:ec2::254]/latest",
		"http://[fe80::1]/x", "http://0.0.0.0:9000/x", "http://224.0.0.1/x", "http://[fe80::1%25eth0]/x"} {
		if _, err := wide.CheckURL(t.Context(), u); !errors.Is(err, webhook.ErrTargetRefused) {
			t.Errorf("%s accepted with every range listed: %v", u, err)
		}
	}
	if _, err := wide.CheckURL(t.Context(), "http://10.0.0.1/x"); err != nil {
		t.Errorf("a listed private address refused: %v", err)
	}
}
