package http

import (
	"bytes"

	"github.com/valyala/fasthttp"
)

// Request framing: where a proxy in front of the engine and the engine
// could disagree on where one request ends and the next begins (request
// smuggling, RFC 9112 section 11.2), the request is answered 400 and its
// connection closed, so that nothing a client hid behind it is served.
//
// fasthttp (1.78) refuses most ambiguous shapes while it parses, before any
// handler runs: a repeated Content-Length (even with equal values) or one
// that is not a single decimal number, a repeated Transfer-Encoding line, a
// Transfer-Encoding other than exactly "chunked" or "identity" (so
// "chunked, identity" and "identity, chunked"), Transfer-Encoding on
// HTTP/1.0, whitespace between a field name and its colon, a NUL, bare CR
// or other control byte in a field value, an HTTP/1.1 request without a
// Host or with an empty, repeated or invalid one, and a space or control
// byte in the request target. Each of those reaches serverError as a
// fasthttp error and is answered 400 INVALID_REQUEST; fasthttp then closes
// the connection.
//
// framingFault covers what it accepts and a proxy may read differently. It
// reads the request's header block as received (RequestHeader.RawHeaders:
// fasthttp keeps the wire bytes, folds included), in one pass without
// allocating.
//
//   - Content-Length together with Transfer-Encoding. fasthttp lets the
//     Transfer-Encoding win and only closes the connection afterwards
//     (RFC 9112 section 6.3 allows that), but a proxy that framed the body
//     by Content-Length would have sent the rest as a request of its own.
//     With "Transfer-Encoding: identity" fasthttp reads the body by
//     Content-Length and drops the Transfer-Encoding field altogether.
//   - A folded field (obs-fold: a line starting with a space or tab,
//     RFC 9112 section 5.2). fasthttp joins it to the field above, so
//     "Transfer-Encoding:" followed by " chunked" was a chunked body to the
//     engine and possibly an empty, ignored field to a proxy.
//   - A space inside a field name ("Transfer Encoding: chunked"). A field
//     name is a token (RFC 9110 section 5.1); fasthttp keeps such a field
//     as an ordinary header, while a proxy that squeezes or drops the space
//     reads a framing field.
//   - A header line ended by a bare LF. RFC 9112 section 2.2 lets a
//     recipient accept one, and fasthttp does; a proxy that does not sees
//     the next field as part of this one's value.
//
// The request line is not kept by fasthttp; its checks are fasthttp's.

// framingFault returns why the request's header block is ambiguous (the
// message of its 400; never the request's own bytes), or "" when it is not.
func framingFault(h *fasthttp.RequestHeader) string {
	raw := h.RawHeaders()
	var contentLength, transferEncoding bool
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			break // unreachable: fasthttp ends the block with CRLF
		}
		if i == 0 || raw[i-1] != '\r' {
			return "a header line ends with a bare LF: end every line with CRLF"
		}
		line, next := raw[:i-1], raw[i+1:]
		if len(next) > 0 && (next[0] == ' ' || next[0] == '\t') {
			return "a header field is folded over several lines (obs-fold): send each field on one line"
		}
		// fasthttp refused a line without a colon and any byte of a name
		// other than a token's and the space.
		if colon := bytes.IndexByte(line, ':'); colon > 0 {
			name := line[:colon]
			if bytes.IndexByte(name, ' ') >= 0 {
				return "a header field name contains a space"
			}
			switch len(name) {
			case len(headerContentLength):
				contentLength = contentLength || bytes.EqualFold(name, headerContentLength)
			case len(headerTransferEncoding):
				transferEncoding = transferEncoding || bytes.EqualFold(name, headerTransferEncoding)
			}
		}
		raw = next
	}
	if contentLength && transferEncoding {
		return "the request has both Content-Length and Transfer-Encoding: send one"
	}
	return ""
}

var (
	headerContentLength    = []byte(fasthttp.HeaderContentLength)
	headerTransferEncoding = []byte(fasthttp.HeaderTransferEncoding)
)
