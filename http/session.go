package http

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// Auth says which credentials a keyed route accepts (docs/accounts.md).
type Auth uint8

const (
	// AuthKey routes take an API key only (the default).
	AuthKey Auth = iota
	// AuthSession routes take a dashboard session only: the account
	// management calls. A session never authorises order submission.
	AuthSession
	// AuthKeyOrSession routes take either; a request that presents a key
	// is authenticated by the key.
	AuthKeyOrSession
)

// Session cookie names: the __Host- prefix (Secure, Path=/, no Domain:
// the browser refuses it from any other origin) whenever the cookie is
// Secure, the plain name on plain http (dev).
const (
	sessionCookieSecure = "__Host-oe_session"
	sessionCookiePlain  = "oe_session"
	headerCSRF          = "X-CSRF-Token"
)

// site returns what a sign-in message must name (domain and origin) and
// whether cookies are Secure. With http.publicURL set, both come from it
// (https makes the cookie Secure). Without it, the request's Host is taken
// only when it names this machine's loopback (a developer's browser at
// localhost or 127.0.0.1): a Host a remote client chose must never choose
// the domain a signed message is checked against, or a message phished
// for another site could be replayed here with that site's name as Host.
// Any other Host gets the listen address's URL, so a service reached by
// name needs http.publicURL (docs/accounts.md).
func (s *Server) site(c *fiber.Ctx) (api.Site, bool) {
	if s.cfg.HTTP.PublicURL == "" {
		if host := string(c.Request().Host()); loopbackHost(host) {
			return api.Site{Domain: host, Origin: "http://" + host}, false
		}
	}
	u, err := url.Parse(s.cfg.HTTP.BaseURL())
	if err != nil || u.Host == "" {
		return api.Site{Domain: "127.0.0.1", Origin: "http://127.0.0.1"}, false
	}
	return api.Site{Domain: u.Host, Origin: u.Scheme + "://" + u.Host}, u.Scheme == "https"
}

// loopbackHost reports whether a Host header names a loopback address or
// localhost, with or without a port.
func loopbackHost(host string) bool {
	h := host
	if name, _, err := net.SplitHostPort(host); err == nil {
		h = name
	}
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// sessionToken returns the request's session cookie ("" when none).
func sessionToken(c *fiber.Ctx) string {
	if v := c.Cookies(sessionCookieSecure); v != "" {
		return v
	}
	return c.Cookies(sessionCookiePlain)
}

// setSessionCookie sets (or, with an empty token, clears) the session
// cookie: HttpOnly, SameSite=Strict, Path=/, Secure over https.
func setSessionCookie(c *fiber.Ctx, token string, expires time.Time, secure bool) {
	name := sessionCookiePlain
	if secure {
		name = sessionCookieSecure
	}
	ck := &fiber.Cookie{Name: name, Value: token, Path: "/", HTTPOnly: true, Secure: secure, SameSite: fiber.CookieSameSiteStrictMode}
	if token == "" {
		ck.Expires, ck.MaxAge = time.Unix(0, 0), -1
	} else {
		ck.Expires = expires
	}
	c.Cookie(ck)
}

// checkOrigin refuses a state-changing request from another origin: its
// Origin header (else its Referer) must be the site's origin. required
// refuses a request that carries neither (every session-authorised call;
// sign-in and sign-out accept one without, as non-browser clients send).
func checkOrigin(c *fiber.Ctx, site api.Site, required bool) error {
	if o := c.Get(fiber.HeaderOrigin); o != "" {
		if !strings.EqualFold(o, site.Origin) {
			return orderengine.Errorf(orderengine.CodeForbidden, "request Origin %q is not this service's %s", truncateHeader([]byte(o)), site.Origin)
		}
		return nil
	}
	if r := c.Get(fiber.HeaderReferer); r != "" {
		if u, err := url.Parse(r); err != nil || !strings.EqualFold(u.Scheme+"://"+u.Host, site.Origin) {
			return orderengine.Errorf(orderengine.CodeForbidden, "request Referer is not on this service's origin %s", site.Origin)
		}
		return nil
	}
	if required {
		return orderengine.Errorf(orderengine.CodeForbidden, "a session call that changes state must carry an Origin header (browsers send it)")
	}
	return nil
}

// sessionCaller authenticates the request's session cookie. For a
// state-changing method it also checks the origin and the CSRF token.
func (s *Server) sessionCaller(c *fiber.Ctx, token string) (api.Caller, *accountstore.Account, error) {
	acs := s.services.Accounts
	if acs == nil {
		return api.Caller{}, nil, errUnimplemented
	}
	ses, acct, ok, err := acs.Session(token)
	if err != nil {
		return api.Caller{}, nil, err
	}
	if !ok {
		return api.Caller{}, nil, orderengine.Errorf(orderengine.CodeUnauthorized, "the session is unknown or expired: sign in again (POST /v1/auth/signin)")
	}
	if m := c.Method(); m != fiber.MethodGet && m != fiber.MethodHead {
		site, _ := s.site(c)
		if err := checkOrigin(c, site, true); err != nil {
			return api.Caller{}, nil, err
		}
		if !csrfMatches(c.Get(headerCSRF), ses.CSRF) {
			return api.Caller{}, nil, orderengine.Errorf(orderengine.CodeForbidden,
				"missing or wrong %s header: send the csrfToken of the sign-in answer or of GET /v1/account", headerCSRF)
		}
	}
	return api.Caller{AccountID: acct.ID, Tier: acct.Tier,
		Session: &api.SessionInfo{Wallet: chain.Checksum(ses.Wallet), CSRF: ses.CSRF}}, acct, nil
}

// csrfMatches compares a presented CSRF token with the session's in
// constant time (over SHA-256 digests, so lengths do not leak either).
func csrfMatches(got, want string) bool {
	if got == "" {
		return false
	}
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}
