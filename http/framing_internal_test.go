package http

import (
	"bufio"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// submitHeader is a submit's request line and headers as a client library
// sends them.
const submitHeader = "POST /v1/orders HTTP/1.1\r\nHost: api.example.com\r\nUser-Agent: Go-http-client/1.1\r\n" +
	"Content-Length: 812\r\nContent-Type: application/json\r\nX-Api-Key: key_0123456789abcdef0123456789abcdef\r\n" +
	"X-Request-Id: 7f8e9d0c-1b2a-4c3d-8e9f-0a1b2c3d4e5f\r\nAccept-Encoding: gzip\r\n\r\n"

// BenchmarkFramingFault measures the check on a submit's header block; it
// must not allocate. BenchmarkHeaderParse, fasthttp's parse of the same
// block, is the yardstick.
func BenchmarkFramingFault(b *testing.B) {
	var h fasthttp.RequestHeader
	if err := h.Read(bufio.NewReader(strings.NewReader(submitHeader))); err != nil {
		b.Fatal(err)
	}
	if f := framingFault(&h); f != "" {
		b.Fatalf("fault %q on a well-formed request", f)
	}
	b.ReportAllocs()
	for b.Loop() {
		if framingFault(&h) != "" {
			b.Fatal("fault")
		}
	}
}

func BenchmarkHeaderParse(b *testing.B) {
	var h fasthttp.RequestHeader
	r := strings.NewReader(submitHeader)
	br := bufio.NewReader(r)
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(submitHeader)
		br.Reset(r)
		h.Reset()
		if err := h.Read(br); err != nil {
			b.Fatal(err)
		}
	}
}
