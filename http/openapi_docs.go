package http

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
)

// operationsMarkdown holds the description of every operation, one
// "## <operationId>" section each.
//
//go:embed openapi_operations.md
var operationsMarkdown string

// operationDocs are the sections of openapi_operations.md by operation id.
var operationDocs = mustParseSections(operationsMarkdown)

// mustParseSections splits md at its "## " headings: the heading's text is
// the key, the trimmed text up to the next heading its value. The text
// before the first heading is left out. A heading that repeats panics (the
// file is embedded, so every test catches it).
func mustParseSections(md string) map[string]string {
	out := map[string]string{}
	var key string
	var body []string
	flush := func() {
		if key != "" {
			out[key] = strings.TrimSpace(strings.Join(body, "\n"))
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if name, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			key, body = strings.TrimSpace(name), nil
			if _, dup := out[key]; dup {
				panic(fmt.Sprintf("http: openapi_operations.md describes %s twice", key))
			}
			continue
		}
		body = append(body, line)
	}
	flush()
	return out
}

// webhookSignatureDoc describes the WebhookSignature security scheme.
const webhookSignatureDoc = "Signs every webhook delivery (the webhooks section); requests to this API never carry it. " +
	"The header is `t=<unix seconds>,v1=<hex>`, where v1 = lowercase hex(HMAC-SHA256(key = the endpoint's secret as its UTF-8 bytes, `whsec_` prefix included, message = t + \".\" + the raw request body)). " +
	"To verify: read the raw body bytes (do not re-serialize the JSON); take t and every v1 (more than one may appear while a secret rotates; one match suffices); " +
	"reject a t more than 5 minutes away from your clock in either direction; compare the HMAC in constant time; only then parse the JSON. " +
	"Stripe's webhook verifier accepts this format. docs/webhooks.md has a Go verifier (webhook.Verify) and a complete receiver."

// sessionCookieDoc describes the SessionCookie security scheme.
const sessionCookieDoc = "The dashboard session opened by POST /v1/auth/signin (Sign-In with Ethereum): an HttpOnly, SameSite=Strict cookie, " +
	"named __Host-oe_session and Secure when http.publicURL is https, oe_session on plain http. " +
	"A session authorises the account calls only, never order submission (an API key and the maker's signature do that). " +
	"Every state-changing call it authorises must send the session's csrfToken in X-CSRF-Token and come from this service's origin (Origin header): 403 FORBIDDEN otherwise. docs/accounts.md."

// schemaDocs describes the component schemas whose definition carries no
// description of its own.
var schemaDocs = map[string]string{
	"ZeroOne":     "A flag sent as 0 or 1.",
	"OrderType":   "The order's class, decided by the makerTraits kind flags: limit (no kind flag), stop_loss, take_profit, dca or trailing.",
	"OrderStatus": "pending: accepted, nothing on chain yet; active: the router has seen it; filled, cancelled, expired and failed are final (docs/orders.md, Statuses).",
	"PageLimit":   "Page size of a keyset-paginated list: 1 to 500, default 100.",
	"SearchText":  "Text matched against token symbols and names, case-insensitive; at most 64 characters.",

	"Error":           "The body of every error answer. Branch on code (GET /v1/errors lists them); the message is for people and may change.",
	"CodeInfo":        "One error code of the catalog with its status and retry guidance.",
	"ErrorCatalog":    "Every error code the API answers with.",
	"OpenAPIDocument": "An OpenAPI 3.1 document: this one.",
	"Health":          "The liveness answer.",
	"Readiness":       "The readiness answer: why this instance takes traffic (the same fields are in details of a 503).",
	"EngineConfig":    "What a client needs to sign and submit orders: chain, router, signing domain and types, makerTraits layout, order types, statuses and rate limits.",
	"BucketLimits":    "Requests per window (rateLimits.windowSeconds) in each bucket of a key.",
	"FeeCell":         "The fee legs of one cell of the fee policy (order kind × token class), in parts per million of the route's gross output.",

	"SignedOrder":         "The router v7.1 Order as signed with EIP-712 (the type string is eip712.order of GET /v1/config). Numbers are decimal strings except referralFeePpm; an unknown field is refused.",
	"SubmitOrderRequest":  "A signed order to submit, with its class and, for dca and trailing orders, the parameters that must equal the signed traits (docs/orders.md).",
	"SubmitOrderResponse": "The order was stored durably and is watched from now on.",
	"CancelOrderRequest":  "The maker's signature of OrderCancel(bytes32 orderHash) under the domain of GET /v1/config.",
	"SuccessResponse":     "The operation took effect (or had already, for an idempotent one).",
	"StoredOrder":         "The signed order as stored, triggerAmountOut always present (derived when the submit omitted it).",
	"OrderRecord":         "An order with its status and progress (docs/orders.md).",
	"OrderDiagnostics":    "Why an open order waits: its condition and the market's distance from it, the maker's funding against the next fill, its deadline, its designated keeper and its last fill that reverted on chain, as of the last evaluated block (cached for that block).",
	"OrderList":           "A page of orders, newest first.",
	"Fill":                "One execution of an order on chain, as the indexer applied it. Amounts are raw units; fees are legs of tokenOut.",
	"FillList":            "The fills of an order in chain order.",
	"OrderbookEntry":      "An open order of the pair's book.",
	"Orderbook":           "A page of a pair's open orders by ascending trigger price, then order hash.",
	"Swap":                "A router swap or an order fill seen on chain.",
	"SwapList":            "A page of swaps and fills, newest first.",
	"VolumeWindow":        "Volume over one window, in total and per pair.",
	"Volume":              "Traded volume in US dollars over the last 24 hours, 7 days and 30 days.",
	"Stats":               "Engine-wide counters.",

	"WebhookEvent":         "A webhook trigger (docs/webhooks.md, Event catalog).",
	"CreateWebhookRequest": "An endpoint to register.",
	"Webhook":              "A webhook endpoint of the account.",
	"WebhookCreated":       "The registered endpoint with its signing secret, shown only in this answer.",
	"WebhookList":          "The account's webhook endpoints, without secrets.",
	"WebhookTestResult":    "The queued test.ping delivery.",
	"Delivery":             "One delivery of an event to the endpoint, with its attempts.",
	"DeliveryList":         "The endpoint's most recent deliveries, newest first.",
	"WebhookDelivery":      "The JSON body of every webhook delivery, whatever its trigger (each trigger's schema narrows it).",
	"WebhookEventData":     "The fields of an event; a field that does not apply to the trigger is omitted. Amounts are raw units as decimal strings, addresses EIP-55.",

	"ExecutableOrder": "An order whose trigger condition holds, with a fresh route and the fillOrder transaction that executes it.",
	"ExecutableList":  "A page of executable orders in order-hash order.",

	"LastEventID":         "The id of the last event a stream sent, as an EventSource sends it back when it reconnects.",
	"KeeperStreamOrder":   "An executable order as the keeper stream announces it: the polling list's entry, with route and tx null until built, and not simulated from the keeper (simulate before sending).",
	"KeeperStreamRemoval": "An order that stopped being executable, and why.",
	"KeeperStreamSet":     "The data of a snapshot or resync event: every executable order the stream shows, at block.",
	"KeeperStreamBlock":   "The data of a block event: what changed at block. Sent for every evaluated block, with empty lists when nothing changed for this stream.",
	"KeeperStreamEvent":   "One event of GET /v1/keeper/stream as the fields of its text/event-stream frame, data shown as the JSON it carries.",
	"OrderStreamEvent":    "One event of GET /v1/orders/stream as the fields of its text/event-stream frame: the event: line is the trigger, data is the webhook delivery body.",

	"FeeLegs":           "The fee legs an order for this wallet and order type must sign: referrer and the triggered cell's referralPpm.",
	"FeeAmounts":        "The fee legs of the served route in raw tokenOut.",
	"RouteHop":          "One swap of a path in one pool.",
	"RoutePath":         "A sequence of hops from tokenIn to tokenOut carrying a share of amountIn.",
	"RouteExecution":    "The calls the router's executor runs for the route, and on the direct path the transaction to send.",
	"RouteCandidate":    "The best route of one venue family, and whether it executed in simulation.",
	"RouteSplit":        "A suggestion to reduce price impact: the route already splits across venues (venue_split), or sequential chunks such as a DCA order would (chunks).",
	"RouteSim":          "The on-chain simulation of the candidates (docs/routing.md, Verification).",
	"Route":             "The best executable route with its amounts net of the served fee cell, the per-family candidates and the fee legs to sign.",
	"VenueQuote":        "An indicative quote of one venue or multi-hop path.",
	"QuoteResponse":     "Indicative quotes from cached pool state, best first.",
	"PreflightCheck":    "One named check of the preflight.",
	"PreflightResponse": "The verdict on an order as it would be signed, every read at one block.",
	"Token":             "A token of the registry.",
	"TokenList":         "The tokens matching the search.",
	"Spot":              "A fee-free spot price from cached pool state.",

	"OrderFilledDelivery":    "The body of an order.filled delivery: data.amountIn and data.amountOut are this fill's.",
	"OrderCancelledDelivery": "The body of an order.cancelled delivery (data.txHash on an on-chain cancel).",
	"OrderExpiredDelivery":   "The body of an order.expired delivery.",
	"OrderFailedDelivery":    "The body of an order.failed delivery, with data.reason and data.revertName.",
	"StopTriggeredDelivery":  "The body of a stop.triggered delivery, with data.triggerPrice.",
	"DcaCompletedDelivery":   "The body of a dca.completed delivery: totals and the execution count.",
	"DcaStalledDelivery":     "The body of a dca.stalled delivery.",
	"TestPingDelivery":       "The body of a test.ping delivery: data.message only.",
}

// configuredOut are the operations a configuration may leave out of the
// document (GET /metrics moves to the admin listener with
// http.metricsOnAdmin): their descriptions and examples are kept for when
// it is served.
var configuredOut = map[string]bool{"metrics": true}

// describe sets the description of every operation (openapi_operations.md),
// of the component schemas of schemaDocs and of the properties of
// propertyDocs. A description for something the document lacks, or a second
// description for something already described, is an error.
func describe(doc obj) error {
	ops := operations(doc)
	for _, id := range sortedKeys(operationDocs) {
		text, op := operationDocs[id], ops[id]
		if op == nil && configuredOut[id] {
			continue
		}
		if op == nil {
			return fmt.Errorf("http: openapi_operations.md describes %s, which is not an operation", id)
		}
		op["description"] = text
	}
	schemas := doc["components"].(obj)["schemas"].(obj)
	for _, name := range sortedKeys(schemaDocs) {
		text := schemaDocs[name]
		s, _ := schemas[name].(obj)
		if s == nil {
			return fmt.Errorf("http: schemaDocs describes %s, which is not a component schema", name)
		}
		if err := setDescription(s, name, text); err != nil {
			return err
		}
	}
	for _, path := range sortedKeys(propertyDocs) {
		props, name, err := property(schemas, path)
		if err != nil {
			return err
		}
		// A copy: the routing schemas share some property schemas (count).
		p := obj{}
		for k, v := range props[name].(obj) {
			p[k] = v
		}
		if err := setDescription(p, path, propertyDocs[path]); err != nil {
			return err
		}
		props[name] = p
	}
	return nil
}

func setDescription(o obj, name, text string) error {
	if _, ok := o["description"]; ok {
		return fmt.Errorf("http: %s is described twice (in its definition and in openapi_docs.go)", name)
	}
	o["description"] = text
	return nil
}

// operations returns the operations of doc's paths and webhooks by id.
func operations(doc obj) map[string]obj {
	out := map[string]obj{}
	for _, section := range []string{"paths", "webhooks"} {
		items, _ := doc[section].(obj)
		for _, item := range items {
			for _, op := range item.(obj) {
				if o, ok := op.(obj); ok {
					out[o["operationId"].(string)] = o
				}
			}
		}
	}
	return out
}

// property finds a property path "Schema.prop[.sub…]": the properties
// object that holds its last step, and that step's name. Each step looks
// through array items and the alternatives of oneOf and allOf.
func property(schemas obj, path string) (obj, string, error) {
	parts := strings.Split(path, ".")
	cur, _ := schemas[parts[0]].(obj)
	if cur == nil {
		return nil, "", fmt.Errorf("http: propertyDocs names %s: no schema %s", path, parts[0])
	}
	for i, name := range parts[1:] {
		props := propertiesWith(cur, name)
		if props == nil {
			return nil, "", fmt.Errorf("http: propertyDocs names %s: no property %s there", path, name)
		}
		if i == len(parts)-2 {
			return props, name, nil
		}
		cur = props[name].(obj)
	}
	return nil, "", fmt.Errorf("http: propertyDocs names %s: not a property path", path)
}

// propertiesWith returns the properties object of s (or of its items or
// oneOf/allOf alternatives) that has name.
func propertiesWith(s obj, name string) obj {
	if props, ok := s["properties"].(obj); ok {
		if _, ok := props[name].(obj); ok {
			return props
		}
	}
	if items, ok := s["items"].(obj); ok {
		if p := propertiesWith(items, name); p != nil {
			return p
		}
	}
	for _, key := range []string{"oneOf", "allOf"} {
		alts, _ := s[key].([]obj)
		for _, alt := range alts {
			if p := propertiesWith(alt, name); p != nil {
				return p
			}
		}
	}
	return nil
}

// sortedKeys returns m's keys in order (for stable error messages).
func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
