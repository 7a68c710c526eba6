package webhook

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestFailureTexts: outside dev mode a failed attempt is logged by its
// kind, from the errors a real client gets from real loopback peers (the
// policy is bypassed: production refuses loopback), never with the peer's
// bytes or the dialed address; in dev mode every kind is the same text.
func TestFailureTexts(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	_ = l.Close()
	serve := func(f func(net.Conn)) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				go f(c)
			}
		}()
		return l.Addr().String()
	}
	banner := serve(func(c net.Conn) {
		_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.9 secret-banner\r\n"))
		time.Sleep(50 * time.Millisecond)
		_ = c.Close()
	})
	silent := serve(func(c net.Conn) { <-t.Context().Done(); _ = c.Close() })
	reset := serve(func(c net.Conn) {
		buf := make([]byte, 1)
		_, _ = c.Read(buf)
		_ = c.(*net.TCPConn).SetLinger(0)
		_ = c.Close()
	})
	client := &fasthttp.Client{ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond,
		RetryIf: func(*fasthttp.Request) bool { return false }}
	post := func(addr string) error {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(resp)
		req.SetRequestURI("http://" + addr + "/hook")
		req.Header.SetMethod("POST")
		return client.DoTimeout(req, resp, 300*time.Millisecond)
	}
	for _, c := range []struct {
		addr, want string
	}{
		{closed, failRefused}, {banner, failBadAnswer}, {silent, failTimeout}, {reset, failReset},
	} {
		err := post(c.addr)
		if err == nil {
			t.Fatalf("%s: no error", c.addr)
		}
		got := failureText(err, false)
		if got != c.want {
			t.Errorf("%s (%v): %q, want %q", c.addr, err, got, c.want)
		}
		if dev := failureText(err, true); dev != failConnection {
			t.Errorf("%s in dev mode: %q, want %q", c.addr, dev, failConnection)
		}
	}
	refused := fmt.Errorf("%w: 10.0.0.1 is a private address", ErrTargetRefused)
	for _, dev := range []bool{false, true} {
		if got := failureText(fmt.Errorf("dial: %w", refused), dev); !strings.Contains(got, "10.0.0.1 is a private address") {
			t.Errorf("policy refusal (dev %v): %q", dev, got)
		}
	}
	if got := failureText(errors.New("x509: certificate signed by unknown authority (tls: ...)"), false); got != failTLS {
		t.Errorf("TLS failure: %q", got)
	}
}
