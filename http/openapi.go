package http

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
)

// OpenAPIVersion is the version of the API the document declares
// (specification section 9).
const OpenAPIVersion = "1.0.0"

type obj = map[string]any

func ref(schema string) obj { return obj{"$ref": "#/components/schemas/" + schema} }

// OpenAPIDocument renders the OpenAPI 3.1 description of routes served
// with httpCfg: from its base URL (config.HTTPConfig.BaseURL), with GET
// /metrics described only when the public listener serves it. Error
// responses are derived from the catalog: each operation lists, per
// status, the codes it may answer with. Descriptions and examples come
// from openapi_docs.go and openapi_examples.go.
func OpenAPIDocument(routes []Route, httpCfg config.HTTPConfig) ([]byte, error) {
	paths := obj{}
	for _, r := range routes {
		p := openAPIPath(r.Path)
		item, _ := paths[p].(obj)
		if item == nil {
			item = obj{}
			paths[p] = item
		}
		item[strings.ToLower(r.Method)] = operation(r)
	}
	for _, op := range []struct {
		path, id, summary, schema string
		status503                 []orderengine.Code
	}{
		{"/healthz", "healthz", "Liveness", "Health", nil},
		{"/readyz", "readyz", "Readiness, for a load balancer", "Readiness",
			[]orderengine.Code{orderengine.CodeServiceUnavailable, orderengine.CodeChainUnavailable, orderengine.CodeNoQuorum}},
		{"/metrics", "metrics", "Prometheus metrics", "", nil},
	} {
		if op.path == "/metrics" && httpCfg.MetricsOnAdmin {
			continue // served on the admin listener
		}
		resp := obj{"description": op.summary + ".", "headers": limitHeaders()}
		if op.schema != "" {
			resp["content"] = obj{"application/json": obj{"schema": ref(op.schema)}}
		} else {
			resp["content"] = obj{"text/plain": obj{"schema": obj{"type": "string"}}}
		}
		responses := obj{"200": resp, "429": errorResponse(http429Codes), "default": errorResponse(nil)}
		if op.status503 != nil {
			responses["503"] = errorResponse(op.status503)
		}
		bucket := Keyless.BucketName()
		if op.path != "/metrics" { // the health probes are never rate limited
			bucket = "none"
			delete(responses, "429")
			// A request whose framing is refused (http/framing.go) is
			// answered 400 on every path, the probes included.
			responses["400"] = errorResponse([]orderengine.Code{orderengine.CodeInvalidRequest})
			for _, r := range responses {
				r.(obj)["headers"] = obj{"X-Request-ID": obj{"$ref": "#/components/headers/RequestID"}}
			}
		}
		paths[op.path] = obj{"get": obj{
			"operationId": op.id, "summary": op.summary, "tags": []string{"operations"}, "security": []obj{},
			"x-rate-limit-bucket": bucket,
			"responses":           responses,
		}}
	}
	doc := obj{
		"openapi": "3.1.0",
		"info": obj{
			"title":       "Order Engine API",
			"contact":     obj{"name": "orderengine", "url": "https://github.com/orderengine/orderengine"},
			"version":     OpenAPIVersion,
			"description": "Non-custodial trading service for an EVM chain (chain id 4663): quotes, routes, EIP-712 signed orders executed by keepers, market data and webhooks. Error codes and retry guidance: GET /v1/errors. A storage failure (disk full, I/O error) is fail-stop: every request answers 500 INTERNAL until the service has restarted, and nothing answered 500 was stored. Rate limits: each operation's x-rate-limit-bucket names the sliding-window bucket it counts in: quote, read or order of the API key (limits per tier in GET /v1/config), or address (keyless operations, per client address at the free read rate, an IPv6 client per /64 prefix; requests refused before a route runs, such as an unknown route or an oversized body, count there too). Every answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset of the bucket it counted in, and the same as RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-11) naming the bucket; a 429 also Retry-After. The health probes /healthz and /readyz are never rate limited (x-rate-limit-bucket none) and carry none of these. Requests: a query parameter sent more than once is 400 INVALID_REQUEST, except a list parameter that says it may be repeated (exclude); a body over 64 KiB (the default http.bodyLimit) is 413 PAYLOAD_TOO_LARGE; a request line and headers over 4096 bytes together are 400 INVALID_REQUEST.",
		},
		"servers": []obj{{"url": httpCfg.BaseURL(), "description": "This server (http.publicURL)."}},
		"tags": []obj{
			{"name": "meta", "description": "What a client reads before anything else: the error catalog, the signing configuration, this document."},
			{"name": "routing", "description": "Quotes, executable routes with fee legs, and the pre-signing check (docs/routing.md)."},
			{"name": "orders", "description": "Submitting, reading, listing and cancelling signed orders (docs/orders.md)."},
			{"name": "market", "description": "Orderbooks, swaps, volume, counters, tokens and spot prices (docs/lifecycle.md, docs/routing.md)."},
			{"name": "webhooks", "description": "Webhook endpoints of the account, and the signed deliveries they receive (docs/webhooks.md)."},
			{"name": "keeper", "description": "What keepers execute, ready to send (docs/lifecycle.md)."},
			{"name": "accounts", "description": "Sign-In with Ethereum, the session, the account with its linked wallets, its API keys and its tier application (docs/accounts.md)."},
			{"name": "platform", "description": "What the account's linked wallets earned as referrers, and the wallets bound to them (docs/platform.md)."},
			{"name": "operations", "description": "Liveness, readiness and metrics for operators (docs/operations.md)."},
		},
		"paths":    paths,
		"webhooks": webhooks(),
		"components": obj{
			"securitySchemes": obj{
				"ApiKeyHeader":     obj{"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "API key svc_…"},
				"BearerKey":        obj{"type": "http", "scheme": "bearer", "description": "The same API key as Authorization: Bearer svc_…"},
				"SessionCookie":    obj{"type": "apiKey", "in": "cookie", "name": sessionCookieSecure, "description": sessionCookieDoc},
				"WebhookSignature": obj{"type": "apiKey", "in": "header", "name": "X-Service-Signature", "description": webhookSignatureDoc},
			},
			"schemas": schemas(),
			"headers": obj{
				"RequestID":  obj{"description": "The request id, echoed or generated.", "schema": obj{"type": "string"}},
				"Limit":      obj{"description": "Requests per window in the bucket the request counted in (x-rate-limit-bucket; the client address's for a request refused before authentication).", "required": true, "schema": obj{"type": "integer", "minimum": 1}},
				"Remaining":  obj{"description": "Requests left in the window.", "required": true, "schema": obj{"type": "integer", "minimum": 0}},
				"Reset":      obj{"description": "Whole seconds until the window frees capacity.", "required": true, "schema": obj{"type": "integer", "minimum": 0}},
				"RetryAfter": obj{"description": "Whole seconds to wait, at least 1.", "required": true, "schema": obj{"type": "integer", "minimum": 1}},
				"RetryAfterNoQuorum": obj{"description": "Sent with NO_QUORUM (cluster mode): whole seconds to wait before retrying, at least 1.",
					"required": false, "schema": obj{"type": "integer", "minimum": 1}},

				"RateLimitPolicy": obj{"description": "The bucket's quota as a Structured Field list item (draft-ietf-httpapi-ratelimit-headers-11): the bucket's name (x-rate-limit-bucket), q its limit per window, w the window in seconds.", "required": true, "schema": obj{"type": "string"}, "example": `"order";q=30;w=60`},
				"RateLimit":       obj{"description": "The bucket's state after this request (draft-ietf-httpapi-ratelimit-headers-11): the bucket's name, r the requests the window still admits (X-RateLimit-Remaining), t the seconds until capacity frees (X-RateLimit-Reset).", "required": true, "schema": obj{"type": "string"}, "example": `"order";r=12;t=40`},
			},
		},
	}
	if err := describe(doc); err != nil {
		return nil, err
	}
	if err := addExamples(doc); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// openAPIPath turns /v1/orders/:hash into /v1/orders/{hash}.
func openAPIPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

var http429Codes = []orderengine.Code{orderengine.CodeRateLimited}

func limitHeaders() obj {
	h := obj{"X-Request-ID": obj{"$ref": "#/components/headers/RequestID"}}
	for name, comp := range map[string]string{headerLimit: "Limit", headerRemaining: "Remaining", headerReset: "Reset",
		headerRateLimitPolicy: "RateLimitPolicy", headerRateLimit: "RateLimit"} {
		h[name] = obj{"$ref": "#/components/headers/" + comp}
	}
	return h
}

func operation(r Route) obj {
	d := r.Doc
	op := obj{"operationId": d.ID, "summary": d.Summary, "tags": []string{d.Tag}, "x-rate-limit-bucket": r.Access.BucketName()}
	codes := append([]orderengine.Code{}, d.Errors...)
	codes = append(codes, orderengine.CodeRateLimited, orderengine.CodePayloadTooLarge, orderengine.CodeInternal)
	if r.call != nil || r.stream != nil {
		codes = append(codes, orderengine.CodeNotImplemented)
	}
	switch {
	case r.Access == Keyless:
		op["security"] = []obj{}
	case r.Auth == AuthSession:
		op["security"] = []obj{{"SessionCookie": []string{}}}
		codes = append(codes, orderengine.CodeUnauthorized)
	case r.Auth == AuthKeyOrSession:
		op["security"] = []obj{{"ApiKeyHeader": []string{}}, {"BearerKey": []string{}}, {"SessionCookie": []string{}}}
		codes = append(codes, orderengine.CodeUnauthorized, orderengine.CodeKeyDisabled)
	default:
		op["security"] = []obj{{"ApiKeyHeader": []string{}}, {"BearerKey": []string{}}}
		codes = append(codes, orderengine.CodeUnauthorized, orderengine.CodeKeyDisabled)
	}
	if r.JSONBody {
		codes = append(codes, orderengine.CodeInvalidRequest)
	}
	var params []obj
	for _, p := range d.Params {
		params = append(params, obj{"name": p.Name, "in": p.In, "required": p.Required, "description": p.Description, "schema": ref(p.Schema)})
	}
	if params != nil {
		op["parameters"] = params
	}
	if d.Request != "" {
		op["requestBody"] = obj{"required": true, "content": obj{"application/json": obj{"schema": ref(d.Request)}},
			"description": "JSON. A Content-Type other than application/json (or an application/…+json type) is refused with 400 INVALID_REQUEST; without the header the body is read as JSON."}
	}
	media := "application/json"
	if r.stream != nil {
		media = "text/event-stream"
	}
	responses := obj{
		strconv.Itoa(r.Status): obj{
			"description": d.Summary,
			"headers":     limitHeaders(),
			"content":     obj{media: obj{"schema": ref(d.Response)}},
		},
		"default": errorResponse(nil),
	}
	byStatus := map[int][]orderengine.Code{}
	for _, c := range codes {
		info, ok := orderengine.LookupCode(c)
		if !ok {
			panic(fmt.Sprintf("http: route %s %s documents unknown code %s", r.Method, r.Path, c))
		}
		if !containsCode(byStatus[info.Status], c) {
			byStatus[info.Status] = append(byStatus[info.Status], c)
		}
	}
	for status, cs := range byStatus {
		responses[strconv.Itoa(status)] = errorResponse(cs)
	}
	op["responses"] = responses
	return op
}

func containsCode(list []orderengine.Code, c orderengine.Code) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// errorResponse describes an error answer with the given codes (nil: any).
func errorResponse(codes []orderengine.Code) obj {
	headers := limitHeaders()
	desc := "Error object; see GET /v1/errors for every code."
	if len(codes) > 0 {
		names := make([]string, len(codes))
		for i, c := range codes {
			names[i] = string(c)
		}
		sort.Strings(names)
		desc = "Error object with code " + strings.Join(names, ", ") + "."
		for _, c := range codes {
			info, _ := orderengine.LookupCode(c)
			switch {
			case info.Status == 429:
				headers["Retry-After"] = obj{"$ref": "#/components/headers/RetryAfter"}
			case c == orderengine.CodeNoQuorum:
				headers["Retry-After"] = obj{"$ref": "#/components/headers/RetryAfterNoQuorum"}
			}
		}
	}
	return obj{
		"description": desc,
		"headers":     headers,
		"content":     obj{"application/json": obj{"schema": ref("Error"), "examples": errorExamples(codes)}},
	}
}
