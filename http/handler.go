package http

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"runtime/debug"
	"strings"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fastjson"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/api"
)

// routeHandler returns the Fiber handler of one route: authentication, rate
// limiting, body check, the call, the JSON answer.
func (s *Server) routeHandler(r *Route) fiber.Handler {
	bucket := r.Access.bucket()
	policy := r.Access.BucketName()
	single := singleValued(r.Doc.Params)
	return func(c *fiber.Ctx) error {
		ri := info(c)
		ri.route = r.Path
		var caller api.Caller
		if r.Access == Keyless {
			if err := s.limitAddress(c); err != nil {
				return err
			}
		} else if r.Auth == AuthKey {
			p, err := s.authenticate(c)
			if err != nil {
				return err
			}
			ri.keyID = p.Key.ID
			limits := s.cfg.Limits.ForTier(p.Account.Tier, p.Account.Limits)
			// Key ids (key_…) and address subjects (ip:…) never collide.
			d := s.eng.Limiter.Take(p.Key.ID, bucket, bucketLimit(limits, bucket))
			if err := s.setLimitHeaders(c, d, policy); err != nil {
				return err
			}
			caller = api.Caller{AccountID: p.Account.ID, KeyID: p.Key.ID, Tier: p.Account.Tier, RequestID: ri.rid}
		} else {
			var err error
			if caller, err = s.authorizeEither(c, r, ri); err != nil {
				return err
			}
		}
		if name := repeatedParam(c, single); name != "" {
			return orderengine.Errorf(orderengine.CodeInvalidRequest,
				"query parameter %s is repeated: send it once", name)
		}
		if r.JSONBody {
			if ct := c.Request().Header.ContentType(); !jsonMediaType(ct) {
				return orderengine.Errorf(orderengine.CodeInvalidRequest,
					"Content-Type %q is not JSON: send the body as application/json", truncateHeader(ct))
			}
			if !r.ParsesBody {
				if err := fastjson.ValidateBytes(c.Body()); err != nil {
					return notJSON(r.Doc.Request)
				}
			}
		}
		if r.raw != nil {
			return r.raw(s, c)
		}
		in := input{c: c, caller: caller, srv: s}
		if r.stream != nil {
			return s.serveStream(c, r, &in, ri.keyID)
		}
		out, err := r.call(c.UserContext(), &s.services, &in)
		if err != nil {
			return err
		}
		return writeJSON(c, r.Status, out)
	}
}

// notJSON is the INVALID_REQUEST of a body that is not well-formed JSON,
// naming the request's schema when it has one.
func notJSON(request string) error {
	if request != "" {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "request body is not valid JSON: send a %s object (GET /v1/openapi.json describes it)", request)
	}
	return orderengine.Errorf(orderengine.CodeInvalidRequest, "request body is not valid JSON")
}

// authorizeEither authenticates a route that takes a session (AuthSession,
// AuthKeyOrSession): by the API key when the request presents one and the
// route takes keys, else by the session cookie. A session counts in the
// route's bucket of its account (subject acct:<id>), at the account's
// tier.
func (s *Server) authorizeEither(c *fiber.Ctx, r *Route, ri *reqInfo) (api.Caller, error) {
	bucket, policy := r.Access.bucket(), r.Access.BucketName()
	presentsKey := c.Get("X-API-Key") != "" || c.Get(fiber.HeaderAuthorization) != ""
	if r.Auth == AuthKeyOrSession && (presentsKey || sessionToken(c) == "") {
		p, err := s.authenticate(c)
		if err != nil {
			return api.Caller{}, err
		}
		ri.keyID = p.Key.ID
		limits := s.cfg.Limits.ForTier(p.Account.Tier, p.Account.Limits)
		if err := s.setLimitHeaders(c, s.eng.Limiter.Take(p.Key.ID, bucket, bucketLimit(limits, bucket)), policy); err != nil {
			return api.Caller{}, err
		}
		return api.Caller{AccountID: p.Account.ID, KeyID: p.Key.ID, Tier: p.Account.Tier, RequestID: ri.rid}, nil
	}
	token := sessionToken(c)
	if token == "" {
		if limErr := s.limitAddress(c); limErr != nil {
			return api.Caller{}, limErr
		}
		return api.Caller{}, orderengine.Errorf(orderengine.CodeUnauthorized,
			"this call needs a dashboard session: sign in with POST /v1/auth/signin (an API key does not manage the account)")
	}
	caller, acct, err := s.sessionCaller(c, token)
	if err != nil {
		if limErr := s.limitAddress(c); limErr != nil {
			return api.Caller{}, limErr
		}
		return api.Caller{}, err
	}
	subject := "acct:" + acct.ID
	ri.keyID = subject
	limits := s.cfg.Limits.ForTier(acct.Tier, acct.Limits)
	if err := s.setLimitHeaders(c, s.eng.Limiter.Take(subject, bucket, bucketLimit(limits, bucket)), policy); err != nil {
		return api.Caller{}, err
	}
	caller.RequestID = ri.rid
	return caller, nil
}

// singleValued returns the names of the query parameters that take one
// value (all but the lists, such as exclude, which may be repeated).
func singleValued(params []ParamDoc) []string {
	var out []string
	for _, p := range params {
		if p.In == "query" && !p.Repeatable() {
			out = append(out, p.Name)
		}
	}
	return out
}

// repeatedParam returns the first of names that the query carries more than
// once, or "". A repeated single-valued parameter is refused rather than
// read as its first value: a proxy or client library that reads the last
// one would then act on another request than the one served.
func repeatedParam(c *fiber.Ctx, names []string) string {
	args := c.Context().QueryArgs()
	if args.Len() < 2 {
		return ""
	}
	for _, name := range names {
		n := 0
		args.VisitAll(func(k, _ []byte) {
			if string(k) == name {
				n++
			}
		})
		if n > 1 {
			return name
		}
	}
	return ""
}

// jsonMediaType reports whether a request's Content-Type allows a JSON
// body: absent, application/json, or an application/…+json type, with any
// parameters, in any case.
func jsonMediaType(ct []byte) bool {
	mt, _, _ := bytes.Cut(ct, []byte(";"))
	mt = bytes.TrimSpace(mt) // compared without a lowered copy: this runs on every submit
	const app, suffix = "application/", "+json"
	return len(mt) == 0 || bytes.EqualFold(mt, []byte(fiber.MIMEApplicationJSON)) ||
		(len(mt) > len(app)+len(suffix) && bytes.EqualFold(mt[:len(app)], []byte(app)) && bytes.EqualFold(mt[len(mt)-len(suffix):], []byte(suffix)))
}

// truncateHeader copies a header value for a message, at most 64 bytes.
func truncateHeader(v []byte) string {
	if len(v) > 64 {
		return string(v[:64]) + "..."
	}
	return string(v)
}

// probe wraps a health probe (/healthz, /readyz): keyless and never rate
// limited, so that a load balancer's or an orchestrator's checks, however
// frequent, never see a 429 and never spend a client's budget (all of a
// balancer's probes come from a few addresses, often the ones its
// clients' requests come from).
func (s *Server) probe(route string, h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		info(c).route = route
		return h(c)
	}
}

// isProbe reports whether c is a request for a health probe.
func isProbe(c *fiber.Ctx) bool {
	if c.Method() != fiber.MethodGet {
		return false
	}
	p := c.Path()
	return p == "/healthz" || p == "/readyz"
}

// keylessOps wraps /metrics when the public listener serves it: keyless and
// limited per client address like the keyless API routes.
func (s *Server) keylessOps(route string, h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		info(c).route = route
		if err := s.limitAddress(c); err != nil {
			return err
		}
		return h(c)
	}
}

// limitAddress counts a keyless request against its client address at the
// free read rate.
func (s *Server) limitAddress(c *fiber.Ctx) error {
	d := s.eng.Limiter.Take(addressSubject(s.clientAddr(c)), limiter.Read, s.cfg.Limits.Free.Read)
	return s.setLimitHeaders(c, d, addressPolicy)
}

// addressSubject is the limiter subject of a client address: "ip:" and the
// IPv4 address, or the /64 prefix of an IPv6 address. A single IPv6 host is
// routinely given a whole /64, so counting each address apart would let one
// client rotate through 2^64 fresh budgets (and limiter states). a is
// unmapped (clientAddr): an IPv4-mapped peer counts as its IPv4 address.
func addressSubject(a netip.Addr) string {
	if a.Is4() {
		return "ip:" + a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return "ip:" + a.String()
	}
	return "ip:" + p.String()
}

// limitUncounted gives an answer that no route counted the rate-limit
// headers every answer of the API carries (specification section 8): a
// request refused before a route ran (unknown route, method not allowed,
// body over the limit, a fasthttp-level refusal) or whose handler panicked
// before its headers were set counts against the client address like a
// keyless one. A health probe is not counted and carries none: its error
// answers (500 after a storage failure, 503 from /readyz) are never 429.
// It returns err, or RATE_LIMITED when the address is over its limit.
func (s *Server) limitUncounted(c *fiber.Ctx, err error) error {
	if len(c.Response().Header.Peek(headerLimit)) > 0 || isProbe(c) {
		return err
	}
	if limErr := s.limitAddress(c); limErr != nil {
		return limErr
	}
	return err
}

// authenticate resolves the request's API key. A failed attempt also counts
// against the client address, so guessing keys is rate limited too.
func (s *Server) authenticate(c *fiber.Ctx) (accountstore.Principal, error) {
	key := apiKey(c)
	p, err := s.eng.Accounts.Authenticate(key)
	if err != nil && key == "" && c.Get(fiber.HeaderAuthorization) != "" {
		err = orderengine.Errorf(orderengine.CodeUnauthorized, "the Authorization header must be \"Bearer <API key>\" (or send the key in X-API-Key)")
	}
	if err != nil {
		if limErr := s.limitAddress(c); limErr != nil {
			return p, limErr
		}
		return p, err
	}
	return p, nil
}

// apiKey returns the key from X-API-Key or Authorization: Bearer. The
// string is only valid inside the handler.
func apiKey(c *fiber.Ctx) string {
	if k := c.Get("X-API-Key"); k != "" {
		return strings.TrimSpace(k)
	}
	auth := c.Get(fiber.HeaderAuthorization)
	if len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
		return strings.TrimSpace(auth[7:])
	}
	return ""
}

func bucketLimit(l config.BucketLimits, b limiter.Bucket) int {
	switch b {
	case limiter.Quote:
		return l.Quote
	case limiter.Order:
		return l.Order
	}
	return l.Read
}

// writeJSON writes a service result: a body the service rendered as is,
// one that renders itself appended to the response, anything else encoded.
func writeJSON(c *fiber.Ctx, status int, v any) error {
	c.Status(status)
	switch b := v.(type) {
	case api.Rendered:
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(b)
	case json.RawMessage:
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(b)
	case []byte:
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(b)
	case jsonAppender:
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(b.AppendJSON(make([]byte, 0, 128)))
	}
	return c.JSON(v)
}

// jsonAppender is a result that renders itself (api.Submitted).
type jsonAppender interface{ AppendJSON(b []byte) []byte }

func stack() string { return string(debug.Stack()) }
