package webhook_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/webhook"
)

// fakeResolver is a FAKE DNS resolver, used only by the SSRF tests: it lets a
// test decide what a name resolves to, and change the answer between the
// check at creation and the dial at delivery (DNS rebinding). Nothing else
// in the tests is faked.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][]netip.Addr
	calls   int
}

func (r *fakeResolver) set(host string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []netip.Addr
	for _, a := range addrs {
		out = append(out, netip.MustParseAddr(a))
	}
	r.answers[host] = out
}

func (r *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	a, ok := r.answers[host]
	if !ok {
		return nil, fmt.Errorf("no such host %s", host)
	}
	return a, nil
}

func TestCheckURLOutsideDevMode(t *testing.T) {
	res := &fakeResolver{answers: map[string][]netip.Addr{}}
	res.set("public.example", "93.184.216.34")
	res.set("mixed.example", "93.184.216.34", "10.1.2.3")
	res.set("internal.example", "192.168.1.10")
	p := webhook.Policy{Dev: false, Resolver: res}
	refused := []string{
		"http://public.example/hook",          // plain http
		"ftp://public.example/hook",           // scheme
		"https://127.0.0.1/hook",              // loopback
		"https://127.1.2.3:8443/hook",         // loopback /8
		"https://[::1]/hook",                  // loopback v6
		"https://10.0.0.1/hook",               // private
		"https://172.16.5.5/hook",             // private
		"https://192.168.0.1/hook",            // private
		"https://169.254.169.254/latest",      // metadata (link-local)
		"https://[fd00:ec2::254]/latest",      // metadata v6 (unique local)
		"https://[fe80::1]/hook",              // link-local v6
		"https://0.0.0.0/hook",                // unspecified
		"https://[::]/hook",                   // unspecified v6
		"https://100.64.0.1/hook",             // CGNAT
		"https://[::ffff:127.0.0.1]/hook",     // IPv4-mapped loopback
		"https://[64:ff9b::a9fe:a9fe]/hook",   // NAT64 of 169.254.169.254
		"https://[::7f00:1]/hook",             // IPv4-compatible 127.0.0.1
		"https://[::a9fe:a9fe]/hook",          // IPv4-compatible 169.254.169.254
		"https://[::ffff:0:7f00:1]/hook",      // IPv4-translated 127.0.0.1
		"https://[::1%25lo]/hook",             // loopback v6 with a zone
		"https://[fe80::1%25eth0]/hook",       // link-local v6 with a zone
		"https://[fd00:ec2::254%25eth0]/x",    // metadata v6 with a zone
		"https://[::%25lo]/hook",              // unspecified v6 with a zone
		"https://internal.example/hook",       // name resolving to private
		"https://mixed.example/hook",          // one private answer is enough
		"https://user:pw@public.example/hook", // credentials
		"https://nowhere.example/hook",        // unresolvable
		"/relative",
	}
	for _, u := range refused {
		if _, err := p.CheckURL(t.Context(), u); !errors.Is(err, webhook.ErrTargetRefused) {
			t.Errorf("%s: accepted (err %v)", u, err)
		}
	}
	for _, u := range []string{"https://public.example/hook", "https://93.184.216.34:8443/x"} {
		if _, err := p.CheckURL(t.Context(), u); err != nil {
			t.Errorf("%s: refused: %v", u, err)
		}
	}
	// The real system resolver: localhost resolves to loopback and is refused.
	if _, err := (webhook.Policy{}).CheckURL(t.Context(), "https://localhost/hook"); !errors.Is(err, webhook.ErrTargetRefused) {
		t.Errorf("https://localhost accepted: %v", err)
	}
}

func TestCheckURLDevMode(t *testing.T) {
	res := &fakeResolver{answers: map[string][]netip.Addr{}}
	res.set("public.example", "93.184.216.34")
	p := webhook.Policy{Dev: true, Resolver: res}
	for _, u := range []string{"http://127.0.0.1:9000/hook", "http://[::1]:9000/hook", "https://public.example/hook"} {
		if _, err := p.CheckURL(t.Context(), u); err != nil {
			t.Errorf("%s refused in dev mode: %v", u, err)
		}
	}
	if _, err := p.CheckURL(t.Context(), "http://public.example/hook"); !errors.Is(err, webhook.ErrTargetRefused) {
		t.Errorf("plain http to a public host accepted in dev mode: %v", err)
	}
	// Dev mode relaxes loopback only: every other internal range stays
	// refused, by literal or by name.
	res.set("metadata.example", "169.254.169.254")
	res.set("mixed-loopback.example", "127.0.0.1", "10.0.0.7")
	for _, u := range []string{
		"https://169.254.169.254/latest", "http://169.254.169.254/latest", "https://[fd00:ec2::254]/latest",
		"https://[fe80::1]/hook", "https://10.0.0.1/hook", "https://172.16.5.5/hook", "https://192.168.0.1/hook",
		"https://[fc00::1]/hook", "https://100.64.0.1/hook", "https://0.0.0.0/hook", "http://0.0.0.0:9000/hook",
		"https://[::1%25lo]/hook", "https://metadata.example/x", "http://mixed-loopback.example/x",
	} {
		if _, err := p.CheckURL(t.Context(), u); !errors.Is(err, webhook.ErrTargetRefused) {
			t.Errorf("%s accepted in dev mode: %v", u, err)
		}
	}
}

// TestDNSRebindingRefusedAtDelivery registers a name that resolves to a
// public address, then makes it resolve to loopback (where a real receiver
// listens): the delivery must be refused at dial time and never reach it.
func TestDNSRebindingRefusedAtDelivery(t *testing.T) {
	res := &fakeResolver{answers: map[string][]netip.Addr{}}
	res.set("rebind.example", "93.184.216.34")
	h := newHarness(t, func(h *harness) { h.dev, h.res = false, res })
	rc := newReceiver(t, nil)
	port := rc.srv.URL[strings.LastIndex(rc.srv.URL, ":")+1:]
	ep := h.create("acc_a", "https://rebind.example:"+port+"/hook")
	res.set("rebind.example", "127.0.0.1")
	if _, err := h.m.Test("acc_a", ep.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "attempt recorded", func() bool {
		l, _ := h.m.Deliveries("acc_a", ep.ID)
		return len(l.Deliveries) == 1 && l.Deliveries[0].Attempts == 1
	})
	d := h.lastDelivery("acc_a", ep.ID)
	if !strings.Contains(d.Error, "target refused") || d.ResponseCode != nil || d.Status != "pending" {
		t.Fatalf("rebinding not refused: %+v", d)
	}
	if strings.Contains(d.Error, "127.0.0.1") {
		t.Fatalf("the delivery log shows what the name resolved to: %q", d.Error)
	}
	if rc.count() != 0 {
		t.Fatalf("the loopback receiver was reached %d times", rc.count())
	}
	// Creating it now is refused too.
	if _, err := h.m.Create(t.Context(), "acc_b", "https://rebind.example/hook", nil); orderengine.AsError(err).Code != orderengine.CodeInvalidRequest {
		t.Fatalf("create with a loopback answer: %v", err)
	}
	// And plain-http loopback outside dev mode.
	if _, err := h.m.Create(t.Context(), "acc_b", rc.srv.URL, nil); orderengine.AsError(err).Code != orderengine.CodeInvalidRequest {
		t.Fatalf("create http loopback outside dev mode: %v", err)
	}
}

// TestDialRefusesZonedAddress: the delivery dialer refuses a zoned IPv6
// literal (here loopback, where a real listener waits) outside dev mode
// instead of connecting to it.
func TestDialRefusesZonedAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			_ = c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	dial := webhook.Policy{Dev: false}.DialContext(&net.Dialer{Timeout: time.Second})
	c, err := dial(t.Context(), "tcp", fmt.Sprintf("[::1%%lo]:%d", port))
	if err == nil {
		_ = c.Close()
	}
	if !errors.Is(err, webhook.ErrTargetRefused) {
		t.Fatalf("dial [::1%%lo]: err %v, want a refusal", err)
	}
	select {
	case <-accepted:
		t.Fatal("the loopback listener was reached")
	default:
	}
}

// dnsErrResolver answers every lookup with err.
type dnsErrResolver struct{ err error }

func (r dnsErrResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return nil, r.err
}

// TestRefusalsDoNotEchoResolution: a refused name is refused without the
// address it resolved to, and a failed lookup without the resolver's own
// text (which names the server's DNS server), so the creation error cannot
// be used to read the server's DNS answers for internal names. An IP
// literal, which the caller wrote, is named.
func TestRefusalsDoNotEchoResolution(t *testing.T) {
	res := &fakeResolver{answers: map[string][]netip.Addr{}}
	res.set("db.internal.example", "10.20.30.40")
	p := webhook.Policy{Resolver: res}
	_, err := p.CheckURL(t.Context(), "https://db.internal.example/hook")
	if !errors.Is(err, webhook.ErrTargetRefused) || strings.Contains(err.Error(), "10.20.30.40") ||
		!strings.Contains(err.Error(), "db.internal.example resolves to an address that is not public") {
		t.Fatalf("name refusal: %v", err)
	}
	if _, err := p.CheckURL(t.Context(), "https://10.20.30.40/hook"); err == nil || !strings.Contains(err.Error(), "10.20.30.40 is a private address") {
		t.Fatalf("literal refusal: %v", err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{&net.DNSError{Err: "no such host", Name: "gone.example", Server: "10.9.9.9:53", IsNotFound: true}, "cannot resolve gone.example (no such host)"},
		{&net.DNSError{Err: "i/o timeout", Name: "gone.example", Server: "10.9.9.9:53", IsTimeout: true}, "cannot resolve gone.example (DNS timeout)"},
		{errors.New("dial udp 10.9.9.9:53: connect: network is unreachable"), "cannot resolve gone.example (lookup failed)"},
	} {
		_, err := webhook.Policy{Resolver: dnsErrResolver{c.err}}.CheckURL(t.Context(), "https://gone.example/hook")
		if !errors.Is(err, webhook.ErrTargetRefused) || strings.Contains(err.Error(), "10.9.9.9") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lookup error %v answered %v, want %q", c.err, err, c.want)
		}
	}
}
