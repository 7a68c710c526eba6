package http

import "github.com/gofiber/fiber/v2"

// PanicRouteForTest returns r with a handler that panics, to test recovery.
func PanicRouteForTest(r Route) Route {
	r.raw = func(*Server, *fiber.Ctx) error { panic("boom") }
	return r
}

// BlockingRouteForTest returns r with a handler that signals entered, waits
// for release, then answers 200 {"status":"ok"}.
func BlockingRouteForTest(r Route, entered chan<- struct{}, release <-chan struct{}) Route {
	r.raw = func(_ *Server, c *fiber.Ctx) error {
		entered <- struct{}{}
		<-release
		return c.JSON(fiber.Map{"status": "ok"})
	}
	return r
}

// AdminAppForTest is the admin listener's Fiber app (add routes to it
// before the listeners start).
func (s *Server) AdminAppForTest() *fiber.App { return s.admin }
