package http

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/limiter"
)

// The rate-limit headers. X-RateLimit-* are specification section 8's;
// RateLimit and RateLimit-Policy are the fields of the IETF draft
// draft-ietf-httpapi-ratelimit-headers-11 (Structured Field lists of one
// item each), which rate-limit-aware client libraries read:
//
//	RateLimit-Policy: "order";q=30;w=60
//	RateLimit: "order";r=12;t=40
//
// The item names the bucket the request counted in (x-rate-limit-bucket of
// the OpenAPI document: quote, read or order of the API key, or address);
// q is the bucket's limit per window, w the window in seconds, r what the
// window still admits (X-RateLimit-Remaining) and t the seconds until the
// oldest counted request leaves the window (X-RateLimit-Reset).
const (
	headerLimit           = "X-RateLimit-Limit"
	headerRemaining       = "X-RateLimit-Remaining"
	headerReset           = "X-RateLimit-Reset"
	headerRateLimit       = "RateLimit"
	headerRateLimitPolicy = "RateLimit-Policy"
)

// addressPolicy names the per-address bucket of keyless and unauthenticated
// requests.
const addressPolicy = "address"

// setLimitHeaders writes the rate-limit headers of decision d in bucket
// policy and returns RATE_LIMITED, naming what was counted, when d refused
// the request. It allocates nothing: the values are built on the stack and
// copied into the response's header buffer.
func (s *Server) setLimitHeaders(c *fiber.Ctx, d limiter.Decision, policy string) error {
	h := &c.Response().Header
	reset := d.ResetSeconds()
	var buf [64]byte
	h.SetCanonical(canonicalLimit, strconv.AppendInt(buf[:0], int64(d.Limit), 10))
	h.SetCanonical(canonicalRemaining, strconv.AppendInt(buf[:0], int64(d.Remaining), 10))
	h.SetCanonical(canonicalReset, strconv.AppendInt(buf[:0], int64(reset), 10))
	b := appendPolicyName(buf[:0], policy)
	b = append(b, ";q="...)
	b = strconv.AppendInt(b, int64(d.Limit), 10)
	b = append(b, ";w="...)
	b = strconv.AppendInt(b, int64(s.cfg.Limits.Window/time.Second), 10)
	h.SetCanonical(canonicalRateLimitPolicy, b)
	b = appendPolicyName(buf[:0], policy)
	b = append(b, ";r="...)
	b = strconv.AppendInt(b, int64(d.Remaining), 10)
	b = append(b, ";t="...)
	b = strconv.AppendInt(b, int64(reset), 10)
	h.SetCanonical(canonicalRateLimit, b)
	if d.Allowed {
		return nil
	}
	who := "this client address (keyless and unauthenticated requests)"
	if policy != addressPolicy {
		who = "the API key's " + policy + " bucket"
	}
	return &orderengine.Error{
		Code:              orderengine.CodeRateLimited,
		Message:           fmt.Sprintf("rate limit of %s reached (%d requests per window); retry after %d s (Retry-After)", who, d.Limit, d.RetryAfterSeconds()),
		RetryAfterSeconds: d.RetryAfterSeconds(),
	}
}

// The rate-limit header names as the response writes them (normalized by
// fasthttp's own rule), so that setting them skips normalizing each name on
// every request.
var (
	canonicalLimit           = fasthttp.AppendNormalizedHeaderKey(nil, headerLimit)
	canonicalRemaining       = fasthttp.AppendNormalizedHeaderKey(nil, headerRemaining)
	canonicalReset           = fasthttp.AppendNormalizedHeaderKey(nil, headerReset)
	canonicalRateLimitPolicy = fasthttp.AppendNormalizedHeaderKey(nil, headerRateLimitPolicy)
	canonicalRateLimit       = fasthttp.AppendNormalizedHeaderKey(nil, headerRateLimit)
)

// appendPolicyName appends a bucket name as a Structured Field String (the
// names are lower-case letters: nothing to escape).
func appendPolicyName(b []byte, policy string) []byte {
	b = append(b, '"')
	b = append(b, policy...)
	return append(b, '"')
}

// limitHeaderNames are the rate-limit headers a panic's answer keeps.
var limitHeaderNames = [...]string{headerLimit, headerRemaining, headerReset, headerRateLimitPolicy, headerRateLimit}

// savedLimitHeaders are the rate-limit headers of a response about to be
// reset (a panic), to be put back on the error answer.
type savedLimitHeaders [len(limitHeaderNames)][]byte

func saveLimitHeaders(c *fiber.Ctx) savedLimitHeaders {
	var out savedLimitHeaders
	for i, h := range limitHeaderNames {
		out[i] = append([]byte(nil), c.Response().Header.Peek(h)...)
	}
	return out
}

func (l savedLimitHeaders) restore(c *fiber.Ctx) {
	for i, h := range limitHeaderNames {
		if len(l[i]) > 0 {
			c.Response().Header.SetBytesV(h, l[i])
		}
	}
}
