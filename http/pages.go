package http

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine/http/web"
)

// PagesCSP is the Content-Security-Policy of the pages (/ and /docs) and
// their assets: scripts, styles and requests only from this origin, no
// inline script or style, no framing, no plugins, no form posts (the
// forms are handled by the page's own modules).
const PagesCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// page is one embedded file served at a fixed path.
type page struct {
	route       string // metrics and log label
	contentType string
	body        []byte
	etag        string
}

// pageRoutes returns the pages and their assets by request path: / is the
// dashboard, /docs the API reference, /assets/… the files under
// http/web/assets.
func pageRoutes() (map[string]*page, error) {
	out := map[string]*page{}
	add := func(urlPath, file, route string) error {
		body, err := web.Files.ReadFile(file)
		if err != nil {
			return fmt.Errorf("http: page %s: %w", file, err)
		}
		sum := sha256.Sum256(body)
		out[urlPath] = &page{route: route, contentType: mediaType(file), body: body,
			etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
		return nil
	}
	if err := add("/", "dashboard.html", "/"); err != nil {
		return nil, err
	}
	if err := add("/docs", "docs.html", "/docs"); err != nil {
		return nil, err
	}
	err := fs.WalkDir(web.Files, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return add("/"+p, p, "/assets")
	})
	return out, err
}

// mediaType is the Content-Type of an embedded file by its extension.
func mediaType(file string) string {
	switch path.Ext(file) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}

// addPages routes the pages (pageRoutes) on app. They are keyless and count in the
// address bucket, like the other keyless routes (per client address at the
// free read rate; a page load is a dozen requests, far below it), never in
// a key's quote, read or order bucket. Each answer carries the pages'
// security headers and an ETag; the browser revalidates (Cache-Control:
// no-cache) and a matching If-None-Match is answered 304 without a body,
// so a new binary's pages are seen at once.
func (s *Server) addPages(app *fiber.App) {
	for urlPath, p := range s.pages {
		// Add, not Get: Get would also serve HEAD, which is not described.
		app.Add(fiber.MethodGet, urlPath, s.servePage(p))
	}
}

func (s *Server) servePage(p *page) fiber.Handler {
	return func(c *fiber.Ctx) error {
		info(c).route = p.route
		if err := s.limitAddress(c); err != nil {
			return err
		}
		h := &c.Response().Header
		h.Set("Content-Security-Policy", PagesCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		// same-origin, not no-referrer: under no-referrer a browser sends
		// "Origin: null" on the page's POSTs, and the session calls check
		// Origin against the service's own.
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set(fiber.HeaderCacheControl, "no-cache")
		h.Set(fiber.HeaderETag, p.etag)
		if etagMatches(c.Get(fiber.HeaderIfNoneMatch), p.etag) {
			c.Status(fiber.StatusNotModified)
			return nil
		}
		h.Set(fiber.HeaderContentType, p.contentType)
		c.Status(fiber.StatusOK)
		return c.Send(p.body)
	}
}

// etagMatches reports whether an If-None-Match value names etag (a list,
// weak validators compared weakly as RFC 9110 section 13.1.2 says, or *).
func etagMatches(header, etag string) bool {
	for _, v := range strings.Split(header, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == etag || v == "*" {
			return true
		}
	}
	return false
}
