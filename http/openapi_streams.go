package http

// The schemas of the Server-Sent Events streams. A stream's answer is
// text/event-stream; its schema describes one event as the fields of its
// frame (id:, event:, data:), the data shown as the JSON document it
// carries, the way OpenAPI 3.2 describes event streams with itemSchema.

// keeperRemovalReasons are the reasons an order leaves the keeper stream's
// set (keeper.Reason*).
var keeperRemovalReasons = []string{"filled", "cancelled", "expired", "failed", "unfunded", "condition_not_met"}

// streamSchemas returns the stream schemas; executable is the polling
// list's ExecutableOrder, whose fields the keeper stream's orders share.
func streamSchemas(executable obj) obj {
	props := obj{}
	for k, v := range executable["properties"].(obj) {
		props[k] = v
	}
	for _, name := range []string{"route", "minAmountOut", "expectedAmountOut", "expectedKeeperFee", "tx"} {
		props[name] = obj{"oneOf": []obj{props[name].(obj), {"type": "null"}}}
	}
	props["block"] = obj{"type": "integer", "description": "The block this announcement was made at: the order became executable (or its fill amount changed, or its route was built again) at this block."}
	props["routeBlock"] = obj{"type": []string{"integer", "null"}, "description": "The block route and tx were built at; null, like them, until the engine built them (at most streams.routesPerBlock per block: the order is then announced again with them)."}
	required := append(append([]string{}, executable["required"].([]string)...), "routeBlock")
	blockHead := func(extra obj, req ...string) obj {
		p := obj{"block": obj{"type": "integer", "minimum": 0, "description": "The evaluated block."}, "blockHash": ref("Hash")}
		for k, v := range extra {
			p[k] = v
		}
		return closed(object(append([]string{"block", "blockHash"}, req...), p))
	}
	eventFrame := func(id obj, names []string, data obj) obj {
		return closed(object([]string{"id", "event", "data"}, obj{
			"id":    id,
			"event": obj{"type": "string", "enum": names, "description": "The event: line."},
			"data":  data,
		}))
	}
	orderEvents := make([]string, 0, len(webhookTriggers))
	for _, w := range webhookTriggers {
		if w.trigger != "test.ping" {
			orderEvents = append(orderEvents, w.trigger)
		}
	}
	return obj{
		"LastEventID":       obj{"type": "string", "maxLength": 64},
		"KeeperStreamOrder": object(required, props),
		"KeeperStreamRemoval": closed(object([]string{"orderHash", "reason"}, obj{
			"orderHash": ref("Hash"),
			"reason": obj{"type": "string", "enum": keeperRemovalReasons, "description": "filled, cancelled, expired, failed: the order's outcome (a full fill or an on-chain cancel counts from the block that holds it); " +
				"unfunded: the maker's balance or router allowance at this block is below fillIn; condition_not_met: the trigger no longer holds (price, the DCA leg executed or not due yet, a stale oracle)."},
		})),
		"KeeperStreamSet": blockHead(obj{"orders": arrayOf(ref("KeeperStreamOrder"))}, "orders"),
		"KeeperStreamBlock": blockHead(obj{
			"executable": described(arrayOf(ref("KeeperStreamOrder")), "Orders announced at this block, in hash order: those that became executable, those whose fill amount changed (a partial fill, the next DCA leg), and those announced again with a fresh route. Replace what you hold for each."),
			"removed":    described(arrayOf(ref("KeeperStreamRemoval")), "Orders that stopped being executable at this block, in hash order, each with its reason."),
		}, "executable", "removed"),
		"KeeperStreamEvent": eventFrame(
			pattern(`^[0-9]+-[0-9a-f]{16}$`, "The id: line, <block>-<16 hex digits>: the block and a digest of the set after it, the same on every node. Sent back as Last-Event-ID, it resumes the stream after that block."),
			[]string{"snapshot", "resync", "block"},
			obj{"oneOf": []obj{ref("KeeperStreamSet"), ref("KeeperStreamBlock")}, "description": "The data: line, one JSON document: a KeeperStreamSet for snapshot and resync, a KeeperStreamBlock for block."}),
		"OrderStreamEvent": eventFrame(
			refDesc("EventID", "The id: line: the event id, the X-Service-Delivery of its webhook deliveries. Sent back as Last-Event-ID, it resumes the stream after that event."),
			orderEvents,
			refDesc("WebhookDelivery", "The data: line: the event's webhook delivery body, byte for byte (its id equals the frame's id).")),
	}
}
