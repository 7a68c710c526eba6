package orderengine

import (
	"errors"
	"fmt"
	"net/http"
)

// Code is a stable, machine-readable error code. Clients branch on it; the
// message next to it is for people and may change.
type Code string

// The error codes of the public API. Every code a handler can answer with is
// listed here and in the catalog below; a test fails when one is missing.
const (
	CodeInvalidRequest     Code = "INVALID_REQUEST"
	CodeInvalidOrder       Code = "INVALID_ORDER"
	CodeInvalidTraits      Code = "INVALID_TRAITS"
	CodeOrderExpired       Code = "ORDER_EXPIRED"
	CodeBadSignature       Code = "BAD_SIGNATURE"
	CodeFeeParamsMismatch  Code = "FEE_PARAMS_MISMATCH"
	CodeUnauthorized       Code = "UNAUTHORIZED"
	CodeKeyDisabled        Code = "KEY_DISABLED"
	CodeForbidden          Code = "FORBIDDEN"
	CodeNotFound           Code = "NOT_FOUND"
	CodeMethodNotAllowed   Code = "METHOD_NOT_ALLOWED"
	CodeAlreadyExists      Code = "ALREADY_EXISTS"
	CodeNotCancellable     Code = "NOT_CANCELLABLE"
	CodeLimitReached       Code = "LIMIT_REACHED"
	CodePayloadTooLarge    Code = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedPair    Code = "UNSUPPORTED_PAIR"
	CodeNoOracle           Code = "NO_ORACLE"
	CodeNoRoute            Code = "NO_ROUTE"
	CodeNoPool             Code = "NO_POOL"
	CodeRateLimited        Code = "RATE_LIMITED"
	CodeMakerRateLimited   Code = "MAKER_RATE_LIMITED"
	CodeInternal           Code = "INTERNAL"
	CodeNotImplemented     Code = "NOT_IMPLEMENTED"
	CodeChainUnavailable   Code = "CHAIN_UNAVAILABLE"
	CodeServiceUnavailable Code = "SERVICE_UNAVAILABLE"
	CodeNoQuorum           Code = "NO_QUORUM"
)

// CodeInfo describes one error code: the HTTP status it is answered with,
// whether a client may retry, and how.
type CodeInfo struct {
	Code        Code   `json:"code"`
	Status      int    `json:"status"`
	Retryable   bool   `json:"retryable"`
	Retry       string `json:"retry"`
	Description string `json:"description"`
}

// catalog is the single source of truth for codes, statuses and retry
// guidance. GET /v1/errors, the OpenAPI error schema and the HTTP error
// mapping are all derived from it.
var catalog = [...]CodeInfo{
	{CodeInvalidRequest, http.StatusBadRequest, false, "Fix the request: the message names the field or parameter.", "Malformed JSON, a missing field, or a field or query parameter of the wrong type or format."},
	{CodeInvalidOrder, http.StatusBadRequest, false, "Fix the order content and sign it again.", "Order content is invalid: zero amount, identical tokens, bad address, or a triggerAmountOut that differs from the derived value."},
	{CodeInvalidTraits, http.StatusBadRequest, false, "Encode makerTraits for the orderType (see GET /v1/config) and sign again.", "makerTraits flags or fields are invalid for the orderType, or top-level DCA/trailing fields differ from the signed traits."},
	{CodeOrderExpired, http.StatusBadRequest, false, "Sign a new order with a deadline in the future.", "The order's deadline has already passed."},
	{CodeBadSignature, http.StatusBadRequest, false, "Sign the v7.1 typed data from GET /v1/config with the maker's key (a sign-in message: personal_sign with the wallet's key).", "The signature does not recover to the maker under the v7.1 signing domain (or to a sign-in message's address), or is malformed or high-s."},
	{CodeFeeParamsMismatch, http.StatusBadRequest, false, "Take referrer and referralFeePpm from the feeLegs of GET /v1/route for the same wallet and orderType.", "The order's fee fields differ from the fee legs the route call serves."},
	{CodeUnauthorized, http.StatusUnauthorized, false, "Send a valid key in X-API-Key or Authorization: Bearer (account calls: sign in for a session; sign-in: a fresh nonce and message).", "The API key or session is missing, invalid or expired, or a sign-in message's nonce or time is no longer valid."},
	{CodeKeyDisabled, http.StatusUnauthorized, false, "Use the reissued key, or ask for a new one.", "The API key has been disabled."},
	{CodeForbidden, http.StatusForbidden, false, "Use a key of the account that owns the resource; send the session's X-CSRF-Token from this service's origin.", "The resource belongs to another account (a referrer that is not a linked wallet), or a session call lacks its CSRF token or comes from another origin."},
	{CodeNotFound, http.StatusNotFound, false, "Check the path and identifier.", "The resource or route does not exist."},
	{CodeMethodNotAllowed, http.StatusMethodNotAllowed, false, "Use a method listed in the Allow header.", "The route exists but does not accept this method."},
	{CodeAlreadyExists, http.StatusConflict, false, "Do not resubmit; read the existing resource.", "An order with this hash is already indexed, a wallet is already linked to an account, a key was already reissued, or a tier application is pending."},
	{CodeNotCancellable, http.StatusConflict, false, "Cancel on-chain through the router instead.", "The order is no longer cancellable off-chain (it is not pending)."},
	{CodeLimitReached, http.StatusConflict, false, "Delete an existing resource first.", "An account limit is reached, such as a fourth webhook endpoint."},
	{CodePayloadTooLarge, http.StatusRequestEntityTooLarge, false, "Send a body of at most 64 KiB.", "The request body is larger than the limit."},
	{CodeUnsupportedPair, http.StatusUnprocessableEntity, false, "Choose a pair with oracle coverage for triggered orders.", "The pair cannot be safely executed as a triggered order."},
	{CodeNoOracle, http.StatusUnprocessableEntity, false, "Choose tokens with an oracle price for triggered orders.", "A token of the pair has no usable oracle price."},
	{CodeNoRoute, http.StatusUnprocessableEntity, true, "Retry later or with a smaller amount.", "No executable route for the pair and amount right now."},
	{CodeNoPool, http.StatusUnprocessableEntity, true, "Retry later; liquidity may appear.", "No pool holds liquidity for the pair right now."},
	{CodeRateLimited, http.StatusTooManyRequests, true, "Wait for the Retry-After seconds, then retry.", "The API key's limit for this bucket is reached."},
	{CodeMakerRateLimited, http.StatusTooManyRequests, true, "Wait for the Retry-After seconds, or close open orders of this maker.", "Too many orders from one maker wallet, or too many open orders for it."},
	{CodeInternal, http.StatusInternalServerError, true, "Retry with backoff; report the X-Request-ID if it persists.", "An unexpected server error."},
	{CodeNotImplemented, http.StatusNotImplemented, false, "This endpoint is described but not available in this build.", "The endpoint is not implemented yet."},
	{CodeChainUnavailable, http.StatusServiceUnavailable, true, "Retry with backoff.", "The chain node cannot be reached."},
	{CodeServiceUnavailable, http.StatusServiceUnavailable, true, "Retry with backoff.", "The service is starting or shutting down."},
	{CodeNoQuorum, http.StatusServiceUnavailable, true, "Wait for the Retry-After seconds, then retry; resubmitting the same signed order is safe (201 or 409 ALREADY_EXISTS both mean it is stored).", "Cluster mode: this node cannot make the write durable now (no quorum of nodes, or a leader election in progress), or cannot tell whether an order it does not hold exists (its store trails the cluster and the quorum did not answer in time). Nothing was changed, unless the message says the outcome is unknown."},
}

// Catalog returns a copy of every error code with its status and retry
// guidance, in a stable order.
func Catalog() []CodeInfo {
	out := make([]CodeInfo, len(catalog))
	copy(out, catalog[:])
	return out
}

// LookupCode returns the catalog entry of code.
func LookupCode(code Code) (CodeInfo, bool) {
	for _, info := range catalog {
		if info.Code == code {
			return info, true
		}
	}
	return CodeInfo{}, false
}

// Error is the error type of the public API: a code from the catalog and a
// message that tells the client what to fix. Packages return it (or wrap it)
// and the HTTP layer maps it to its status in one place.
type Error struct {
	Code    Code
	Message string
	// Details is optional structured context served as "details".
	Details any
	// RetryAfterSeconds, when positive, is served as the Retry-After header.
	RetryAfterSeconds int
}

// Error implements error.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Status is the HTTP status of the error's code (500 for an unknown code).
func (e *Error) Status() int {
	if info, ok := LookupCode(e.Code); ok {
		return info.Status
	}
	return http.StatusInternalServerError
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError returns the *Error in err's chain, or an INTERNAL error whose
// message hides err's text (it is logged, never served).
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: "internal error"}
}
