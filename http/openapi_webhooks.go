package http

// webhookTrigger is one kind of outgoing webhook delivery: its trigger (the
// X-Service-Event value), the operation id of its entry in the document's
// webhooks section, its body schema and the data fields it always carries.
type webhookTrigger struct {
	trigger, operationID, schema, summary string
	required                              []string
}

// orderEventFields are the data fields of every order event (every trigger
// but test.ping): persistence.EventData, filled from the order record.
var orderEventFields = []string{"orderType", "pair", "tokenIn", "tokenOut", "amountIn", "amountOut", "orderHash"}

func orderEvent(extra ...string) []string {
	return append(append([]string{}, orderEventFields...), extra...)
}

// webhookTriggers lists the deliveries in the event catalog's order
// (docs/webhooks.md, "Event catalog").
var webhookTriggers = []webhookTrigger{
	{"order.filled", "onOrderFilled", "OrderFilledDelivery", "A fill of an order", orderEvent("txHash")},
	{"order.cancelled", "onOrderCancelled", "OrderCancelledDelivery", "An order was cancelled", orderEvent()},
	{"order.expired", "onOrderExpired", "OrderExpiredDelivery", "An order expired", orderEvent()},
	{"order.failed", "onOrderFailed", "OrderFailedDelivery", "An order can no longer execute", orderEvent()},
	{"stop.triggered", "onStopTriggered", "StopTriggeredDelivery", "A stop or trailing trigger fired", orderEvent()},
	{"dca.completed", "onDcaCompleted", "DcaCompletedDelivery", "A DCA order completed", orderEvent("txHash", "executions")},
	{"dca.stalled", "onDcaStalled", "DcaStalledDelivery", "A DCA leg is overdue", orderEvent("executions")},
	{"test.ping", "onTestPing", "TestPingDelivery", "A test delivery", []string{"message"}},
}

// webhooks is the document's webhooks section: one POST per trigger, as
// the engine sends it to a registered endpoint, signed with the endpoint's
// secret (security scheme WebhookSignature).
func webhooks() obj {
	out := obj{}
	for _, w := range webhookTriggers {
		out[w.trigger] = obj{"post": obj{
			"operationId": w.operationID,
			"summary":     w.summary + " (" + w.trigger + ")",
			"tags":        []string{"webhooks"},
			"security":    []obj{{"WebhookSignature": []string{}}},
			"parameters": []obj{
				{"name": "X-Service-Event", "in": "header", "required": true, "description": "The trigger: " + w.trigger + ".",
					"schema": obj{"$ref": "#/components/schemas/WebhookEvent", "const": w.trigger}},
				{"name": "X-Service-Delivery", "in": "header", "required": true,
					"description": "The event id, equal to the body's id and the same on every retry: dedupe on it.", "schema": ref("EventID")},
				{"name": "X-Service-Signature", "in": "header", "required": true,
					"description": "t=<unix seconds>,v1=<hex HMAC-SHA256 of t.rawBody> (several v1 may appear): see the WebhookSignature security scheme.",
					"schema":      ref("WebhookSignatureHeader")},
			},
			"requestBody": obj{"required": true, "description": "The event, signed as sent: verify the signature on these raw bytes before parsing them.",
				"content": obj{"application/json": obj{"schema": ref(w.schema)}}},
			"responses": obj{
				"2XX":     obj{"description": "Acknowledged: the delivery is complete. Answer within 10 seconds, and for a duplicate too."},
				"default": obj{"description": "Any other status, a timeout, a connection error or a redirect is a failed attempt, retried on the schedule of docs/webhooks.md (429 and 503 may set the delay with Retry-After)."},
			},
		}}
	}
	return out
}

// webhookSchemas are the body schemas of the deliveries: WebhookDelivery
// (every trigger) narrowed per trigger.
func webhookSchemas() obj {
	out := obj{
		"EventID":                pattern(`^evt_[0-9A-Za-z]+$`, "Event id: evt_ and base62 characters."),
		"WebhookSignatureHeader": pattern(`^t=[0-9]+(,v1=[0-9a-f]{64})+$`, "t=<unix seconds>,v1=<64 lowercase hex>; one v1 per signing secret."),
	}
	out["WebhookDelivery"] = object([]string{"id", "trigger", "createdAt", "data"}, obj{
		"id": obj{"type": "string"}, "trigger": ref("WebhookEvent"), "createdAt": obj{"type": "string", "format": "date-time"},
		"data": ref("WebhookEventData"),
	})
	out["WebhookEventData"] = object(nil, obj{
		"orderType": ref("OrderType"), "pair": obj{"type": "string"}, "tokenIn": ref("Address"), "tokenOut": ref("Address"),
		"amountIn": ref("UintString"), "amountOut": ref("UintString"), "txHash": ref("Hash"), "orderHash": ref("Hash"),
		"reason": str("order.failed: why the order can no longer execute."), "revertName": str("order.failed: the router's custom error name."),
		"executions": refDesc("UintString", "dca.*: the router's execution count so far (a SHORT_CIRCUIT catch-up execution carries several legs)."), "totalExecutions": refDesc("UintString", "dca.*: legs planned."), "triggerPrice": ref("UintString"),
		"message": str("test.ping: a fixed text."),
	})
	for _, w := range webhookTriggers {
		out[w.schema] = obj{"allOf": []obj{ref("WebhookDelivery"), {"type": "object", "properties": obj{
			"trigger": obj{"const": w.trigger},
			"data":    obj{"allOf": []obj{ref("WebhookEventData")}, "required": w.required},
		}}}}
	}
	return out
}
