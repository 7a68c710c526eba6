// Package orderengine holds the error catalogue of the public API: every
// code with its status, retry guidance and description, from which
// GET /v1/errors, the OpenAPI error schemas and the HTTP error mapping are
// derived. It imports no other package of this module, so any package may
// import it.
//
// The engine's packages are drawn in docs/architecture.md.
package orderengine
