package http

import "github.com/gofiber/fiber/v2"

// PanicRouteForTest returns r with a handler that panics, to test recovery.
func PanicRouteForTest(r Route) Route {
	r.raw = func(*Server, *fiber.Ctx) error { panic("boom") }
	return r
}
