package http

import "github.com/orderengine/orderengine"

func str(desc string) obj { return obj{"type": "string", "description": desc} }

func pattern(p, desc string) obj { return obj{"type": "string", "pattern": p, "description": desc} }

func object(required []string, props obj) obj {
	o := obj{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// refDesc is a reference to a component with a description of its use.
func refDesc(schema, desc string) obj {
	return obj{"$ref": "#/components/schemas/" + schema, "description": desc}
}

// closed forbids properties o does not list: the submit body refuses an
// unknown field with INVALID_REQUEST naming it.
func closed(o obj) obj {
	o["additionalProperties"] = false
	return o
}

// described sets o's description.
func described(o obj, desc string) obj {
	o["description"] = desc
	return o
}

func arrayOf(item obj) obj { return obj{"type": "array", "items": item} }

func dateTime() obj { return obj{"type": "string", "format": "date-time"} }

func nullable(schema string) obj { return obj{"oneOf": []obj{ref(schema), {"type": "null"}}} }

// schemas returns the document's component schemas. Response shapes that
// the specification leaves open are described with their known fields and
// stay open to additions (the issues that implement them tighten them);
// the routing endpoints' schemas (routingSchemas) declare every field.
func schemas() obj {
	codes := []string{}
	for _, c := range orderengine.Catalog() {
		codes = append(codes, string(c.Code))
	}
	feeCell := object([]string{"protocolPpm", "referralPpm", "keeperPpm"}, obj{
		"protocolPpm": ref("Ppm"), "referralPpm": ref("Ppm"), "keeperPpm": ref("Ppm"),
	})
	all := obj{
		"Address":     pattern(`^0x[0-9a-fA-F]{40}$`, "20-byte address, 0x-hex; answered EIP-55 checksummed."),
		"Hash":        pattern(`^0x[0-9a-fA-F]{64}$`, "32-byte hash, 0x-hex."),
		"HexBytes":    pattern(`^0x([0-9a-fA-F]{2})*$`, "Bytes, 0x-hex."),
		"UintString":  pattern(`^[0-9]{1,78}$`, "Unsigned integer as a decimal string (raw token units)."),
		"Ppm":         obj{"type": "integer", "minimum": 0, "maximum": 1000000, "description": "Parts per million."},
		"ZeroOne":     obj{"type": "string", "enum": []string{"0", "1"}},
		"OrderType":   obj{"type": "string", "enum": OrderTypes},
		"OrderStatus": obj{"type": "string", "enum": []string{"pending", "active", "filled", "cancelled", "expired", "failed"}},
		"PageLimit":   obj{"type": "integer", "minimum": 1, "maximum": 500, "default": 100},
		"Cursor":      str("Opaque keyset cursor."),
		"ExcludeList": str("Venue family names (cpmm, stableswap), comma-separated or the parameter repeated; an unknown name is INVALID_REQUEST."),
		"Pair":        pattern(`^0x[0-9a-fA-F]{40}-0x[0-9a-fA-F]{40}$`, "<tokenIn>-<tokenOut>."),
		"SearchText":  obj{"type": "string", "maxLength": 64},
		"WebhookID":   str("Webhook endpoint id."),
		"ErrorCode":   obj{"type": "string", "enum": codes, "description": "Stable machine-readable code; GET /v1/errors has the catalog."},
		"Error": object([]string{"error", "code"}, obj{
			"error": str("Human-readable message."), "code": ref("ErrorCode"),
			"requestId": str("The request's X-Request-ID."), "details": obj{"description": "Optional structured context."},
		}),
		"CodeInfo": object([]string{"code", "status", "retryable", "retry", "description"}, obj{
			"code": ref("ErrorCode"), "status": obj{"type": "integer"}, "retryable": obj{"type": "boolean"},
			"retry": str("How to retry, or what to fix."), "description": str("When the code is answered."),
		}),
		"ErrorCatalog":    object([]string{"errors"}, obj{"errors": arrayOf(ref("CodeInfo"))}),
		"OpenAPIDocument": object([]string{"openapi", "info", "paths"}, obj{"openapi": str("3.1.0"), "info": obj{"type": "object"}, "paths": obj{"type": "object"}}),
		"Health":          object([]string{"status"}, obj{"status": obj{"type": "string", "enum": []string{"ok"}}}),
		"Readiness": object([]string{"status", "draining", "indexer", "maxLagBlocks"}, obj{
			"status":       obj{"type": "string", "enum": []string{"ready"}},
			"draining":     obj{"type": "boolean", "description": "The server is draining for a shutdown."},
			"maxLagBlocks": obj{"type": "integer", "description": "lifecycle.readyMaxLag."},
			"indexer": obj{"description": "The indexer's progress (as in GET /v1/stats); null without a chain.", "oneOf": []obj{object([]string{"head", "cursor", "lagBlocks", "failing"}, obj{
				"head": obj{"type": "integer"}, "cursor": obj{"type": "integer"}, "lagBlocks": obj{"type": "integer"}, "reorgs": obj{"type": "integer"}, "failing": obj{"type": "boolean"},
			}), {"type": "null"}}},
		}),
		"EngineConfig": object([]string{"chainId", "router", "feeVault", "domain", "eip712", "makerTraits", "orderTypes", "rateLimits"}, obj{
			"chainId": obj{"type": "integer"}, "routerVersion": str("Router generation."),
			"router": nullable("Address"), "feeVault": nullable("Address"), "oracle": nullable("Address"),
			"rpcUrl": obj{"type": []string{"string", "null"}, "description": "Public JSON-RPC URL of the chain (the dev chain's in dev mode); null when not published."},
			"domain": object([]string{"name", "version", "chainId", "verifyingContract"}, obj{
				"name": obj{"const": "ServiceRouter"}, "version": obj{"const": "7"}, "chainId": obj{"type": "integer"},
				"verifyingContract": nullable("Address"),
			}),
			"eip712": object([]string{"order", "orderCancel", "types"}, obj{
				"domainType": obj{"type": "string"}, "order": obj{"const": OrderTypeString}, "orderCancel": obj{"const": CancelTypeString},
				"types": obj{"type": "object", "additionalProperties": arrayOf(object([]string{"name", "type"}, obj{"name": obj{"type": "string"}, "type": obj{"type": "string"}}))},
			}),
			"makerTraits": object([]string{"fields", "flags"}, obj{"encoding": obj{"type": "string"},
				"fields": arrayOf(object([]string{"name", "bit", "width", "description"}, obj{
					"name": obj{"type": "string"}, "bit": obj{"type": "integer", "description": "Lowest bit of the field."},
					"width": obj{"type": "integer", "description": "Bits."}, "description": obj{"type": "string"},
				})),
				"flags": arrayOf(object([]string{"name", "bit", "description"}, obj{
					"name": obj{"type": "string"}, "bit": obj{"type": "integer"}, "description": obj{"type": "string"},
				})),
			}),
			"orderTypes": arrayOf(ref("OrderType")),
			"statuses":   arrayOf(ref("OrderStatus")),
			"rateLimits": object([]string{"windowSeconds", "tiers", "enterprise", "makerSubmits", "makerWindowSeconds", "makerOpenOrders", "keylessPerAddress"}, obj{
				"windowSeconds":      obj{"type": "integer", "description": "The sliding window of the per-key buckets."},
				"tiers":              object([]string{"free", "builder"}, obj{"free": ref("BucketLimits"), "builder": ref("BucketLimits")}),
				"enterprise":         str("Enterprise limits are set per account."),
				"makerSubmits":       obj{"type": "integer", "description": "Submits per maker wallet per makerWindowSeconds (MAKER_RATE_LIMITED)."},
				"makerWindowSeconds": obj{"type": "integer"},
				"makerOpenOrders":    obj{"type": "integer", "description": "Open orders per maker wallet (MAKER_RATE_LIMITED beyond)."},
				"keylessPerAddress":  obj{"type": "integer", "description": "Requests per window per client address on the keyless endpoints."},
			}),
			"build": described(object([]string{"version", "commit", "goVersion"}, obj{
				"version":   str("Release or `git describe` of the running build, e.g. v1.4.0; \"(devel)\" when the build did not say."),
				"commit":    str("Commit the build was made from (\"-dirty\" when the work tree had changes); \"unknown\" when the build did not say."),
				"goVersion": str("Go release that built the binary, e.g. go1.27.3."),
			}), "The running build, as `orderengine version` prints it and the orderengine_build_info metric labels it."),
		}),
		"BucketLimits": object([]string{"quote", "read", "order"}, obj{
			"quote": obj{"type": "integer", "description": "Quote bucket: requests per window."},
			"read":  obj{"type": "integer", "description": "Read bucket: requests per window."},
			"order": obj{"type": "integer", "description": "Order bucket: requests per window."},
		}),
		"FeeCell": feeCell,
		"SignedOrder": closed(object([]string{"salt", "maker", "receiver", "tokenIn", "tokenOut", "amountIn", "triggerPrice", "makerTraits", "referrer", "referralFeePpm"}, obj{
			"salt": obj{"type": "string", "description": "32-byte uint256, 0x-hex or decimal."}, "maker": ref("Address"), "receiver": ref("Address"),
			"tokenIn": ref("Address"), "tokenOut": ref("Address"), "amountIn": ref("UintString"), "triggerPrice": ref("UintString"),
			"triggerAmountOut": obj{"$ref": "#/components/schemas/UintString", "description": "Optional; derived when absent, must match when present."},
			"makerTraits":      ref("UintString"), "referrer": ref("Address"), "referralFeePpm": ref("Ppm"),
		})),
		"SubmitOrderRequest": closed(object([]string{"orderType", "order", "signature", "orderHash"}, obj{
			"orderType": ref("OrderType"), "order": ref("SignedOrder"), "signature": ref("HexBytes"), "orderHash": ref("Hash"),
			"intervalSeconds":  refDesc("UintString", "dca only, required: equals makerTraits.intervalSeconds."),
			"totalExecutions":  refDesc("UintString", "dca only, required: equals makerTraits.totalExecutions."),
			"totalAmountIn":    refDesc("UintString", "dca only, required: equals order.amountIn."),
			"flexibilityPpm":   refDesc("Ppm", "dca only, absent = 0: equals makerTraits.kindParamPpm."),
			"shortCircuit":     obj{"type": "boolean", "description": "dca only, absent = false: equals the SHORT_CIRCUIT flag."},
			"trailPpm":         refDesc("Ppm", "trailing only, required: equals makerTraits.kindParamPpm."),
			"designatedKeeper": refDesc("Address", "trailing only, optional: its low 80 bits equal makerTraits.allowedSender (absent: allowedSender is 0)."),
		})),
		"SubmitOrderResponse": object([]string{"success", "orderHash"}, obj{"success": obj{"type": "boolean"}, "orderHash": ref("Hash"),
			"warning": str("Present when the submitted orderHash differs from the server-computed hash, which is the order's hash.")}),
		"CancelOrderRequest": object([]string{"signature"}, obj{"signature": ref("HexBytes")}),
		"SuccessResponse":    object([]string{"success"}, obj{"success": obj{"type": "boolean"}}),
		"StoredOrder":        obj{"allOf": []obj{ref("SignedOrder"), object([]string{"triggerAmountOut"}, obj{})}},
		"OrderRecord": object([]string{"orderHash", "orderType", "status", "pair", "order", "signature", "filledAmountIn", "filledAmountOut",
			"executions", "triggeredAt", "stalled", "createdAt", "updatedAt"}, obj{
			"orderHash": ref("Hash"), "status": ref("OrderStatus"), "orderType": ref("OrderType"), "order": ref("StoredOrder"),
			"pair":           pattern(`^0x[0-9a-fA-F]{40}-0x[0-9a-fA-F]{40}$`, "<tokenIn>-<tokenOut>, EIP-55."),
			"signature":      ref("HexBytes"),
			"filledAmountIn": ref("UintString"), "filledAmountOut": ref("UintString"), "executions": obj{"type": "integer", "minimum": 0},
			"funded": obj{"type": "boolean", "description": "Open orders only, when the chain is readable: the maker's tokenIn balance and router allowance both cover the remaining amount at the latest block (cached up to 1 s). Not required at submit; the order waits for funds."},
			"dca": object([]string{"intervalSeconds", "totalExecutions", "totalAmountIn", "flexibilityPpm", "shortCircuit", "priceGated"}, obj{
				"intervalSeconds": obj{"type": "integer"}, "totalExecutions": obj{"type": "integer"}, "totalAmountIn": ref("UintString"),
				"flexibilityPpm": ref("Ppm"), "shortCircuit": obj{"type": "boolean"}, "priceGated": obj{"type": "boolean"},
			}),
			"trailing":    object([]string{"trailPpm", "designatedKeeper"}, obj{"trailPpm": ref("Ppm"), "designatedKeeper": nullable("Address")}),
			"triggeredAt": obj{"type": []string{"string", "null"}, "format": "date-time", "description": "When a stop or trailing trigger condition was first seen met."},
			"stalled":     obj{"type": "boolean", "description": "A dca leg is overdue beyond its flexibility (false once the order is filled)."},
			"reason":      obj{"type": "string", "description": "Why a failed order can no longer execute."},
			"revertName":  obj{"type": "string", "description": "The router's custom error name from a simulated execution, when there is one."},
			"accountId":   str("The account whose API key submitted the order. Shown only to that account: another key reads the order, not who placed it."),
			"createdAt":   obj{"type": "string", "format": "date-time"}, "updatedAt": obj{"type": "string", "format": "date-time"},
			"diagnostics": refDesc("OrderDiagnostics", "GET /v1/orders/{hash} of an open order, once the engine evaluated a block: why it waits."),
		}),
		"OrderDiagnostics": diagnosticsSchema(),
		"OrderList": object([]string{"orders", "nextCursor"}, obj{"orders": arrayOf(ref("OrderRecord")),
			"nextCursor": obj{"type": []string{"string", "null"}, "description": "Cursor of the next page; null on the last. Every page but the last holds limit orders; orders submitted while a client pages never shift or repeat entries of later pages."}}),
		"Fill": object([]string{"txHash", "blockNumber", "logIndex", "amountIn", "amountOut", "protocolFee", "referralFee", "keeperFee", "keeper", "timestamp"}, obj{
			"txHash": ref("Hash"), "blockNumber": obj{"type": "integer"}, "logIndex": obj{"type": "integer"},
			"amountIn": ref("UintString"), "amountOut": ref("UintString"), "protocolFee": ref("UintString"),
			"referralFee": ref("UintString"), "keeperFee": ref("UintString"), "keeper": ref("Address"), "timestamp": obj{"type": "integer", "description": "Block timestamp, unix seconds."},
		}),
		"FillList": object([]string{"fills"}, obj{"fills": arrayOf(ref("Fill"))}),
		"OrderbookEntry": object([]string{"orderHash", "orderType", "status", "maker", "amountIn", "filledAmountIn", "triggerPrice", "createdAt"}, obj{
			"orderHash": ref("Hash"), "orderType": ref("OrderType"), "status": obj{"type": "string", "enum": []string{"pending", "active"}},
			"maker": ref("Address"), "amountIn": ref("UintString"), "filledAmountIn": ref("UintString"), "triggerPrice": ref("UintString"),
			"createdAt": obj{"type": "string", "format": "date-time"},
		}),
		"Orderbook": object([]string{"pair", "orders", "nextCursor"}, obj{"pair": ref("Pair"), "orders": arrayOf(ref("OrderbookEntry")),
			"nextCursor": obj{"type": []string{"string", "null"}, "description": "Cursor of the next page; null on the last. Every page but the last holds limit orders; an order that closes or arrives while a client pages is listed at most once."}}),
		"Swap": object([]string{"kind", "txHash", "blockNumber", "logIndex", "timestamp", "wallet", "amountIn", "amountOut", "protocolFee", "referralFee"}, obj{
			"kind": obj{"type": "string", "enum": []string{"swap", "fill"}}, "txHash": ref("Hash"),
			"blockNumber": obj{"type": "integer"}, "logIndex": obj{"type": "integer"}, "timestamp": obj{"type": "integer", "description": "Block time, unix seconds."},
			"wallet": ref("Address"), "receiver": ref("Address"),
			"tokenIn": ref("Address"), "tokenOut": ref("Address"), "amountIn": ref("UintString"), "amountOut": ref("UintString"),
			"protocolFee": ref("UintString"), "referralFee": ref("UintString"), "keeperFee": ref("UintString"),
			"keeper": ref("Address"), "referrer": ref("Address"), "orderHash": ref("Hash"),
			"volumeUsd": str("amountIn in USD (2 decimals) by the oracle at the block."),
		}),
		"SwapList": object([]string{"swaps", "nextCursor"}, obj{"swaps": arrayOf(ref("Swap")),
			"nextCursor": obj{"type": []string{"string", "null"}, "description": "Cursor of the next page; null at the end. One request examines at most 20,000 records, so a filtered page may hold fewer than limit swaps (even none) and still have a nextCursor: follow it until null."}}),
		"VolumeWindow": object([]string{"totalUsd", "pairs"}, obj{
			"totalUsd": str("USD, 2 decimals."),
			"pairs": arrayOf(object([]string{"pair", "tokenIn", "tokenOut", "volumeUsd"}, obj{
				"pair": obj{"type": "string"}, "tokenIn": ref("Address"), "tokenOut": ref("Address"), "volumeUsd": str("USD, 2 decimals."),
			})),
		}),
		"Volume": object([]string{"asOf", "24h", "7d", "30d"}, obj{
			"asOf": obj{"type": "string", "format": "date-time"}, "24h": ref("VolumeWindow"), "7d": ref("VolumeWindow"), "30d": ref("VolumeWindow"),
		}),
		"Stats": object([]string{"orders", "openOrders", "fills", "executions", "swaps", "actorsAlive", "indexer"}, obj{
			"orders": object([]string{"byStatus", "byClass", "byStatusAndClass"}, obj{
				"byStatus":         obj{"type": "object", "additionalProperties": obj{"type": "integer"}},
				"byClass":          obj{"type": "object", "additionalProperties": obj{"type": "integer"}},
				"byStatusAndClass": obj{"type": "object", "additionalProperties": obj{"type": "object", "additionalProperties": obj{"type": "integer"}}},
			}),
			"openOrders": obj{"type": "integer"}, "fills": obj{"type": "integer"}, "executions": obj{"type": "integer"}, "swaps": obj{"type": "integer"},
			"actorsAlive": obj{"type": "object", "additionalProperties": obj{"type": "integer"}},
			"indexer": obj{"oneOf": []obj{object([]string{"head", "cursor", "lagBlocks"}, obj{
				"head": obj{"type": "integer"}, "cursor": obj{"type": "integer"}, "lagBlocks": obj{"type": "integer"}, "reorgs": obj{"type": "integer"},
				"failing": obj{"type": "boolean", "description": "The indexer's latest poll failed (node unreachable or an error): head is the last head read. GET /readyz answers 503 while it is true."},
			}), {"type": "null"}}},
			"webhooks": obj{"description": "Webhook delivery counters, null until webhooks run."},
		}),
		"WebhookEvent": obj{"type": "string", "enum": []string{"order.filled", "order.cancelled", "order.expired", "order.failed", "stop.triggered", "dca.completed", "dca.stalled", "test.ping"}},
		"CreateWebhookRequest": closed(object([]string{"url"}, obj{
			"url": obj{"type": "string", "format": "uri"}, "events": arrayOf(ref("WebhookEvent")),
		})),
		"RotateWebhookSecretRequest": described(closed(object(nil, obj{
			"overlapSeconds": obj{"type": "integer", "minimum": 0, "maximum": 604800, "default": 86400,
				"description": "How long the replaced secret keeps signing: each delivery then carries one v1 per secret in X-Service-Signature. 0 stops it at once."},
		})), "A secret rotation; {} for the default overlap."),
		"IdempotencyKey": obj{"type": "string", "minLength": 1, "maxLength": 255, "pattern": `^[ -~]+$`, "description": "A client-chosen key, unique per intended create (printable ASCII)."},
		"Webhook": object([]string{"id", "url", "events", "allEvents", "enabled", "createdAt"}, obj{
			"id": ref("WebhookID"), "url": obj{"type": "string"}, "events": arrayOf(ref("WebhookEvent")),
			"allEvents":      obj{"type": "boolean", "description": "Subscribed to every trigger (events lists them all)."},
			"enabled":        obj{"type": "boolean", "description": "False once disabled after 24 h of failures; re-create the endpoint to re-enable it."},
			"disabledReason": str("Why the endpoint was disabled."), "disabledAt": dateTime(),
			"createdAt": dateTime(), "failingSince": dateTime(), "lastSuccessAt": dateTime(),
			"previousSecretExpiresAt": described(dateTime(), "Set during a secret rotation's overlap: until then the replaced secret signs every delivery too."),
		}),
		"WebhookCreated":    obj{"allOf": []obj{ref("Webhook"), object([]string{"secret"}, obj{"secret": pattern(`^whsec_`, "Signing secret, shown only in this answer (a create, its replay under the same Idempotency-Key, or a rotation).")})}},
		"WebhookList":       object([]string{"webhooks"}, obj{"webhooks": arrayOf(ref("Webhook"))}),
		"WebhookTestResult": object([]string{"deliveryId"}, obj{"deliveryId": str("Id of the queued test.ping delivery (X-Service-Delivery).")}),
		"Delivery": object([]string{"id", "event", "status", "createdAt", "attempts", "responseCode", "latencyMs", "nextRetryAt", "attemptLog"}, obj{
			"id": str("Event id, the X-Service-Delivery value."), "event": ref("WebhookEvent"),
			"status":    obj{"type": "string", "enum": []string{"pending", "delivered", "failed"}},
			"createdAt": dateTime(), "attempts": obj{"type": "integer", "minimum": 0},
			"responseCode": obj{"type": []string{"integer", "null"}, "description": "Of the last attempt; null without an HTTP answer."},
			"latencyMs":    obj{"type": []string{"integer", "null"}, "description": "Of the last attempt."},
			"error":        str("Of the last attempt."), "lastAttemptAt": dateTime(),
			"nextRetryAt": obj{"type": []string{"string", "null"}, "format": "date-time", "description": "Set while pending."},
			"attemptLog": arrayOf(object([]string{"attempt", "at", "responseCode", "latencyMs"}, obj{
				"attempt": obj{"type": "integer", "minimum": 1}, "at": dateTime(),
				"responseCode": obj{"type": []string{"integer", "null"}}, "latencyMs": obj{"type": "integer"}, "error": obj{"type": "string"},
			})),
		}),
		"DeliveryList": object([]string{"deliveries"}, obj{"deliveries": arrayOf(ref("Delivery"))}),
		"ExecutableOrder": object([]string{"orderHash", "orderType", "pair", "order", "signature", "fillIn", "oraclePrice", "block", "route",
			"minAmountOut", "expectedAmountOut", "expectedKeeperFee", "tx"}, obj{
			"orderHash": ref("Hash"), "orderType": ref("OrderType"), "pair": ref("Pair"), "order": ref("StoredOrder"),
			"signature":   ref("HexBytes"),
			"fillIn":      refDesc("UintString", "tokenIn amount of this execution: the remaining amount (limit, stop_loss, take_profit, trailing) or the DCA leg due (several with SHORT_CIRCUIT catch-up; the remainder on the last)."),
			"oraclePrice": obj{"oneOf": []obj{ref("UintString"), {"type": "null"}}, "description": "Oracle price of one whole tokenIn in raw tokenOut at block."},
			"block":       obj{"type": "integer", "description": "Block the order's pair actor decided it at."},
			"route": described(object([]string{"targets", "calldatas"}, obj{
				"family": obj{"type": "string"}, "targets": arrayOf(ref("Address")), "calldatas": arrayOf(ref("HexBytes")),
			}), "The executor calls of a fresh route for fillIn, as encoded in tx.data."),
			"minAmountOut":      refDesc("UintString", "The keeper's bound on the net output carried by tx.data: the route's minimum at the order's slippagePpm."),
			"expectedAmountOut": refDesc("UintString", "Net output the receiver gets on the quoted pools, after every fee leg."),
			"expectedKeeperFee": refDesc("UintString", "Keeper fee leg (raw tokenOut) on the quoted pools, paid to the transaction's sender."),
			"tx": described(object([]string{"to", "data", "value"}, obj{"to": ref("Address"), "data": ref("HexBytes"),
				"value": refDesc("UintString", "Wei to send: always 0 (fillOrder is not payable).")}),
				"The router's fillOrder call to send as is from the keeper address it was simulated from, ready for a wallet library's sendTransaction; gas limit, nonce and fees are the keeper's (the reference keeper estimates the gas and adds 20 %)."),
		}),
		"ExecutableList": object([]string{"orders", "nextCursor"}, obj{"orders": arrayOf(ref("ExecutableOrder")),
			"nextCursor": obj{"type": []string{"string", "null"}, "description": "Cursor of the next page; null at the end. One request examines at most 16 × limit listed orders and routes and simulates at most 4 × limit of them, so a page may hold fewer than limit orders (even none) and still have a nextCursor: follow it, and start over when it is null."}}),
	}
	for name, schema := range streamSchemas(all["ExecutableOrder"].(obj)) {
		all[name] = schema
	}
	for name, schema := range routingSchemas() {
		all[name] = schema
	}
	for name, schema := range webhookSchemas() {
		all[name] = schema
	}
	for name, schema := range accountSchemas() {
		all[name] = schema
	}
	return all
}
