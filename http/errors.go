package http

import (
	"encoding/json"
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
	c.Status(status)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	if e.Details != nil {
		body := errorBody{Error: e.Message, Code: string(e.Code), RequestID: requestID, Details: e.Details}
		if data, err := json.Marshal(body); err == nil {
			_ = c.Send(data)
			return e
		}
	}
	// The common case without details is appended by hand: it is on the
	// hot path of every 401 and 429.
	buf := make([]byte, 0, 64+len(e.Message)+len(requestID))
	buf = append(buf, `{"error":`...)
	buf = appendJSONString(buf, e.Message)
	buf = append(buf, `,"code":`...)
	buf = appendJSONString(buf, string(e.Code))
	if requestID != "" {
		buf = append(buf, `,"requestId":`...)
		buf = appendJSONString(buf, requestID)
	}
	buf = append(buf, '}')
	_ = c.Send(buf)
	return e
}

// appendJSONString appends s as a JSON string, escaping what RFC 8259
// requires (and <, >, & like encoding/json, so bodies stay HTML-safe).
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			buf = append(buf, '\\', c)
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			buf = append(buf, c)
		}
	}
	return append(buf, '"')
}

var (
	errUnimplemented = orderengine.Errorf(orderengine.CodeNotImplemented, "this endpoint is described but not implemented in this build")
)
