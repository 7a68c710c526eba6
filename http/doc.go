// Package http is the engine's Fiber front end: the public API of the
// specification (routes, authentication, rate-limit headers, the error
// mapping, the OpenAPI document), the loopback admin API, /healthz and
// /metrics.
//
// # Adding a capability
//
// Every public endpoint is one row of the route table (routes.go): method,
// path, rate-limit bucket (or keyless), the service call, the success status
// and its OpenAPI description. The plumbing (request id, access log,
// metrics, body limit, authentication, rate limiting, error mapping, 501 for
// an absent service) is shared by every row. A capability implements one of
// the interfaces in services.go and is handed to New (Options.Services) by
// the composition root (package app); it does not touch the table's
// plumbing. Handlers stay
// thin: parse the request into its package api type, call one typed method,
// encode the typed result as JSON.
//
// The pages for people, the dashboard at / and the API reference at /docs,
// are not operations of the table: pages.go serves the files embedded by
// package http/web, keyless in the address bucket, with their own
// Content-Security-Policy (docs/pages.md).
//
// # Layers
//
// Package http sits above the services: it imports them (the interfaces in
// services.go name their result types, and the adapters of routing.Service
// and webhook.Manager live here), and none of them imports http. What both
// sides share, the caller and the request types, is package api. The test
// in internal/layers fails when a lower package imports http.
//
// The OpenAPI document (openapi.go) is built from the table. Each
// operation's description is its section of openapi_operations.md, its
// examples are in openapi_examples.json, and schema and property
// descriptions are in openapi_docs.go and openapi_properties.go:
// TestOpenAPIDocumented and TestOpenAPIExamplesValidate fail when one is
// missing or an example does not match its schema, and TestOpenAPILint when
// Redocly CLI or Spectral (tools/openapi-lint) report anything.
//
// Errors: a service returns *orderengine.Error (or wraps one); anything else
// is answered 500 INTERNAL and logged. writeError (errors.go) is the one
// place an error becomes a status and a body.
package http
