package http

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
)

// errorBody is the error object of specification section 2.3.
type errorBody struct {
	Error     string `json:"error"`
	Code      string `json:"code"`
	RequestID string `json:"requestId,omitempty"`
	Details   any    `json:"details,omitempty"`
}

// toAPIError maps any error to the *orderengine.Error it is answered with.
// It is the only place a status is chosen for an error: Fiber's own errors
// (routing, body limits) are translated to catalog codes here, everything
// unknown is INTERNAL with its text hidden.
func toAPIError(err error) *orderengine.Error {
	var apiErr *orderengine.Error
	if errors.As(err, &apiErr) {
		if _, ok := orderengine.LookupCode(apiErr.Code); !ok {
			return &orderengine.Error{Code: orderengine.CodeInternal, Message: "internal error"}
		}
		return apiErr
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case fiber.StatusNotFound:
			return orderengine.Errorf(orderengine.CodeNotFound, "no such route")
		case fiber.StatusMethodNotAllowed:
			return orderengine.Errorf(orderengine.CodeMethodNotAllowed, "method not allowed on this route")
		case fiber.StatusRequestEntityTooLarge:
			return orderengine.Errorf(orderengine.CodePayloadTooLarge, "request body too large")
		case fiber.StatusBadRequest, fiber.StatusRequestHeaderFieldsTooLarge, fiber.StatusRequestTimeout:
			return orderengine.Errorf(orderengine.CodeInvalidRequest, "malformed request")
		}
	}
	return &orderengine.Error{Code: orderengine.CodeInternal, Message: "internal error"}
}

// writeError answers err as the error object with its catalog status, the
// request id, and Retry-After when the error carries one.
func writeError(c *fiber.Ctx, err error, requestID string) *orderengine.Error {
	e := toAPIError(err)
	status := e.Status()
	if e.RetryAfterSeconds > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.RetryAfterSeconds))
	} else if status == fiber.StatusTooManyRequests {
		c.Set(fiber.HeaderRetryAfter, "1")
	}
	body := errorBody{Error: e.Message, Code: string(e.Code), RequestID: requestID, Details: e.Details}
	_ = c.Status(status).JSON(body)
	return e
}

var (
	errUnimplemented = orderengine.Errorf(orderengine.CodeNotImplemented, "this endpoint is described but not implemented in this build")
)
