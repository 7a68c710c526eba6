package http

// waitingForValues are what an open order may wait for
// (orders.Diagnostics.WaitingFor).
var waitingForValues = []string{"deadline_passed", "oracle_price", "trigger", "dca_leg", "balance", "allowance", "designated_keeper", "keeper"}

// diagnosticsSchema is the diagnostics object of an open order (GET
// /v1/orders/{hash}).
func diagnosticsSchema() obj {
	nullable := func(o obj) obj { return obj{"oneOf": []obj{o, {"type": "null"}}} }
	return closed(object([]string{"block", "executable", "waitingFor", "condition", "funding", "deadline", "designatedKeeper", "lastFailedFill"}, obj{
		"block": described(closed(object([]string{"number", "hash", "time"}, obj{
			"number": obj{"type": "integer", "minimum": 0}, "hash": ref("Hash"), "time": dateTime(),
		})), "The last block the engine evaluated: everything below is as of it. An order accepted after it is decided at the next block."),
		"executable": obj{"type": "boolean", "description": "Keepers are shown the order at block (GET /v1/keeper/executable, the keeper stream): its condition holds and its maker covers the next fill (as far as funding could be read)."},
		"waitingFor": described(arrayOf(obj{"type": "string", "enum": waitingForValues}),
			"What the order waits for, most decisive first: deadline_passed (the next block expires it), oracle_price (no fresh oracle answer), trigger (the price condition), dca_leg (the next leg's time), balance or allowance (the maker's, against needed), then, when nothing else is missing, designated_keeper (only that keeper may send the fill) or keeper (any keeper's transaction)."),
		"condition": described(closed(object([]string{"kind", "met", "oraclePrice", "distancePpm"}, obj{
			"kind": obj{"type": "string", "enum": []string{"price_at_or_above", "price_at_or_below", "trailing", "dca_schedule"},
				"description": "limit and take_profit: the oracle price at or above triggerPrice; stop_loss: at or below; trailing: at or below firePrice, trailPpm under the peak; dca_schedule: the next leg's time (and, price-gated, the price at or above triggerPrice)."},
			"met":             obj{"type": "boolean", "description": "The condition holds at block."},
			"oraclePrice":     refNullable("UintString", "One whole tokenIn in raw tokenOut from the oracle at block; null without a fresh answer."),
			"triggerPrice":    ref("UintString"),
			"distancePpm":     obj{"type": []string{"integer", "null"}, "minimum": 0, "description": "How far the oracle price must move to meet the condition, in ppm of the oracle price: 0 when met, null without a price."},
			"trailPpm":        ref("Ppm"),
			"peak":            refDesc("UintString", "trailing: the highest oracle price since activation."),
			"firePrice":       refDesc("UintString", "trailing: peak × (1 − trailPpm / 1e6), floor: the order fires at or below it."),
			"nextLegDueAt":    obj{"type": "string", "format": "date-time", "description": "dca: when the next leg is due."},
			"legsExecuted":    obj{"type": "integer", "minimum": 0, "description": "dca: the router's execution count."},
			"totalLegs":       obj{"type": "integer", "minimum": 1},
			"priceGated":      obj{"type": "boolean"},
			"nextLegAmountIn": refDesc("UintString", "dca: the next leg's tokenIn."),
		})), "The condition for execution and how far the market is from it."),
		"funding": described(nullable(closed(object([]string{"balance", "allowance", "needed", "covered"}, obj{
			"balance": ref("UintString"), "allowance": refDesc("UintString", "The maker's allowance to the router."),
			"needed":  refDesc("UintString", "tokenIn of the next fill: the remaining amount, or the next DCA leg."),
			"covered": obj{"type": "boolean", "description": "balance and allowance both at least needed."},
		}))), "The maker's tokenIn balance and router allowance read at block; null when the chain could not be read."),
		"deadline": described(nullable(closed(object([]string{"at", "secondsLeft"}, obj{
			"at": dateTime(), "secondsLeft": obj{"type": "integer", "description": "The deadline minus block's time; negative once passed."},
		}))), "null without a deadline."),
		"designatedKeeper": described(nullable(closed(object([]string{"allowedSender", "address"}, obj{
			"allowedSender": pattern(`^0x[0-9a-f]{20}$`, "makerTraits.allowedSender: the low 80 bits of the only sender the router accepts."),
			"address":       obj{"oneOf": []obj{ref("Address"), {"type": "null"}}, "description": "The designatedKeeper submitted with a trailing order; null when only the low bits are known."},
		}))), "null when any keeper may execute."),
		"lastFailedFill": described(nullable(closed(object([]string{"txHash", "blockNumber", "keeper", "revertName", "at"}, obj{
			"txHash": ref("Hash"), "blockNumber": obj{"type": "integer"}, "keeper": refDesc("Address", "The transaction's sender."),
			"revertName": obj{"type": []string{"string", "null"}, "description": "The router's custom error, found by replaying the call on the state after its block; null when the replay did not revert."},
			"at":         dateTime(),
		}))), "The last fillOrder of this order that reverted on chain; null when none did."),
	}))
}

// refNullable is a reference to schema or null, with a description.
func refNullable(schema, desc string) obj {
	return obj{"oneOf": []obj{ref(schema), {"type": "null"}}, "description": desc}
}
