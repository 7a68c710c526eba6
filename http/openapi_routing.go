package http

// routingSchemas are the component schemas of the routing endpoints (GET
// /v1/route, /v1/quote, /v1/order-preflight, /api/spot, /v1/tokens). They
// declare every field the routing service answers with (package routing,
// service.go, service_market.go, preflight.go and fees.go), so a field
// added there without its description here fails the routing contract
// tests.
func routingSchemas() obj {
	count := obj{"type": "integer", "minimum": 0}
	amount := func(desc string) obj { return refDesc("UintString", desc) }
	addresses := arrayOf(ref("Address"))
	return obj{
		"VenueFamily": obj{"type": "string", "enum": []string{"cpmm", "stableswap"},
			"description": "A venue family: cpmm (constant product with a fee tier), stableswap (Curve 2-coin StableSwap)."},
		"RouteFamily": obj{"type": "string", "description": "The venue family of every hop of a route (cpmm, stableswap), or mixed when its hops use more than one."},
		"FeeLegs": object([]string{"referrer", "referrerBound", "requestedReferrer", "vault", "cell", "fees"}, obj{
			"referrer":          refDesc("Address", "Payout address of the referral leg: the wallet's bound referrer when it has one (whatever referrer parameter was given), else the referrer parameter, else the fee vault. Sign it as the order's referrer: the submit check accepts exactly this address."),
			"referrerBound":     obj{"type": "boolean", "description": "True when referrer is the wallet's permanent referral binding (its first accepted order named it); a referrer parameter is then not served."},
			"requestedReferrer": obj{"oneOf": []obj{ref("Address"), {"type": "null"}}, "description": "The referrer parameter as asked, EIP-55; null when none was given. Differs from referrer when the wallet is bound to another one."},
			"vault":             refDesc("Address", "The fee vault."),
			"cell": object([]string{"orderKind", "tokenClass"}, obj{
				"orderKind":  obj{"type": "string", "enum": []string{"direct", "limit", "stop_loss", "take_profit", "dca", "trailing"}, "description": "The orderType, direct when it was omitted."},
				"tokenClass": obj{"type": "string", "enum": []string{"stable", "major", "other"}, "description": "The riskier class of the two tokens."},
			}),
			"fees": object([]string{"direct", "triggered"}, obj{
				"direct":    refDesc("FeeCell", "The direct-swap cell of the pair's class."),
				"triggered": refDesc("FeeCell", "The orderType's cell (the direct cell when orderType is omitted); sign its referralPpm as referralFeePpm."),
			}),
		}),
		"FeeAmounts": object([]string{"protocol", "referral", "keeper"}, obj{
			"protocol": amount("gross × protocolPpm / 1e6 (floor)."), "referral": amount("gross × referralPpm / 1e6 (floor)."),
			"keeper": amount("gross × keeperPpm / 1e6 (floor); 0 on the direct path."),
		}),
		"RouteHop": object([]string{"pool", "family", "tokenIn", "tokenOut", "amountIn", "amountOut"}, obj{
			"pool": ref("Address"), "family": ref("VenueFamily"), "tokenIn": ref("Address"), "tokenOut": ref("Address"),
			"amountIn": ref("UintString"), "amountOut": ref("UintString"),
		}),
		"RoutePath": object([]string{"sharePpm", "amountIn", "amountOut", "hops"}, obj{
			"sharePpm": refDesc("Ppm", "Share of amountIn on this path."), "amountIn": ref("UintString"), "amountOut": amount("Gross output of the path."),
			"hops": arrayOf(ref("RouteHop")),
		}),
		"RouteExecution": object([]string{"router", "executor", "entryPoint", "targets", "calldatas", "amounts", "minAmountOut", "paths", "family", "gas", "gasCostOut"}, obj{
			"router": ref("Address"), "executor": ref("Address"),
			"entryPoint": obj{"type": "string", "enum": []string{"swap", "fillOrder"}, "description": "The router function that runs the calls: swap on the direct path, fillOrder (by a keeper) on the order path."},
			"targets":    arrayOf(ref("Address")), "calldatas": arrayOf(ref("HexBytes")),
			"amounts":      arrayOf(refDesc("UintString", "The token amount each call names; 2^256-1 means the executor's whole balance.")),
			"minAmountOut": amount("The response's minAmountOut."),
			"tx":           object([]string{"to", "data"}, obj{"to": ref("Address"), "data": refDesc("HexBytes", "router.swap(SwapParams) with minAmountOut, feeLegs.referrer and the direct cell's referralPpm.")}),
			"paths":        arrayOf(ref("RoutePath")), "family": ref("RouteFamily"), "gas": count, "gasCostOut": amount("The route's gas at the configured gas price, in tokenOut."),
		}),
		"RouteCandidate": object([]string{"family", "amountOut", "grossAmountOut", "priceImpactPpm", "gas", "paths", "verified"}, obj{
			"family": ref("RouteFamily"), "amountOut": amount("Net of the served fee cell."), "grossAmountOut": ref("UintString"),
			"priceImpactPpm": ref("Ppm"), "gas": count, "paths": count,
			"verified": obj{"type": "boolean"}, "verifiedOut": amount("Simulated net output, when verified."),
			"error": obj{"type": "string", "description": "Why the simulation failed."},
		}),
		"RouteSplit": object([]string{"kind", "message"}, obj{
			"kind":    obj{"type": "string", "enum": []string{"venue_split", "chunks"}},
			"message": obj{"type": "string"}, "paths": count, "gainPpm": count, "chunks": count,
			"chunkAmountIn": ref("UintString"), "chunkAmountOut": ref("UintString"), "chunkImpactPpm": ref("Ppm"),
		}),
		"RouteSim": object([]string{"verified", "reranked", "displacedDex", "deliveryPpm", "simulated"}, obj{
			"verified":     obj{"type": "boolean", "description": "At least one candidate was simulated successfully."},
			"reranked":     obj{"type": "boolean", "description": "The served candidate is not the search's winner."},
			"displacedDex": obj{"type": []string{"string", "null"}, "description": "The family of the search's winner the served route displaced; null otherwise."},
			"verifiedOut":  amount("Simulated net output of the served route at block."),
			"deliveryPpm":  obj{"type": "integer", "minimum": 0, "description": "verifiedOut × 1e6 / amountOut; 0 when nothing verified."},
			"simulated":    obj{"type": "integer", "minimum": 0, "description": "How many candidates verified."},
		}),
		"Route": object([]string{"tokenIn", "tokenOut", "amountIn", "amountOut", "minAmountOut", "grossAmountOut", "fees", "priceImpactPpm",
			"slippagePpm", "directSwap", "block", "route", "splits", "candidates", "routeSim", "feeLegs"}, obj{
			"tokenIn": ref("Address"), "tokenOut": ref("Address"), "amountIn": ref("UintString"),
			"amountOut":      amount("Expected output the receiver gets, net of the served fee cell (the direct cell when directSwap, else the orderType's)."),
			"minAmountOut":   amount("amountOut × (1e6 − slippagePpm) / 1e6 (floor)."),
			"grossAmountOut": amount("Output before the fee legs."),
			"fees":           ref("FeeAmounts"), "priceImpactPpm": ref("Ppm"), "slippagePpm": ref("Ppm"),
			"directSwap": obj{"type": "boolean", "description": "The path served: true the direct swap, false the signed-order (keeper) path."},
			"block":      obj{"type": "integer", "description": "The block every amount was priced and simulated at."},
			"route":      refDesc("RouteExecution", "Targets, calldatas, amounts and minAmountOut of the best route."),
			"splits":     arrayOf(ref("RouteSplit")),
			"candidates": obj{"type": "array", "items": ref("RouteCandidate"), "description": "Best route per venue family, the served one first."},
			"routeSim":   ref("RouteSim"), "feeLegs": ref("FeeLegs"),
		}),
		"VenueQuote": object([]string{"venue", "family", "pools", "path", "amountOut", "priceImpactPpm", "gas"}, obj{
			"venue":  obj{"type": "string", "description": "family:pool for a direct pool, family:SYM>SYM>… for a multi-hop path."},
			"family": ref("RouteFamily"), "pools": addresses, "path": addresses,
			"amountOut": amount("Gross output, before fee legs."), "priceImpactPpm": ref("Ppm"), "gas": count,
		}),
		"QuoteResponse": object([]string{"tokenIn", "tokenOut", "amountIn", "block", "midPrice", "quotes"}, obj{
			"tokenIn": ref("Address"), "tokenOut": ref("Address"), "amountIn": ref("UintString"), "block": obj{"type": "integer"},
			"midPrice": amount("Mid price: raw tokenOut per whole tokenIn."),
			"quotes":   obj{"type": "array", "items": ref("VenueQuote"), "description": "Best output first."},
		}),
		"PreflightCheck": object([]string{"name", "ok", "message"}, obj{
			"name": obj{"type": "string", "enum": []string{"balance", "allowance", "route", "feeLegs", "oracle"}},
			"ok":   obj{"type": "boolean"}, "message": obj{"type": "string"},
		}),
		"PreflightResponse": object([]string{"ok", "block", "orderKind", "checks"}, obj{
			"ok":        obj{"type": "boolean", "description": "Every check passed."},
			"block":     obj{"type": "integer", "description": "The block every read was pinned to."},
			"orderKind": obj{"type": "string", "enum": []string{"limit", "stop_loss"}},
			"checks":    arrayOf(ref("PreflightCheck")),
			"amountOut": amount("Net output of the verified route; absent when the route check failed."), "minAmountOut": ref("UintString"),
			"feeLegs": refDesc("FeeLegs", "The fee legs to sign; absent when they cannot be resolved."),
		}),
		"Token": object([]string{"address", "symbol", "name", "decimals", "class", "oracle", "volume30dUsd"}, obj{
			"address": ref("Address"), "symbol": obj{"type": "string"}, "name": obj{"type": "string"},
			"decimals":     obj{"type": "integer", "minimum": 0, "maximum": 255},
			"class":        obj{"type": "string", "enum": []string{"stable", "major", "other"}, "description": "Fee class."},
			"oracle":       obj{"type": "boolean", "description": "The oracle had a price for the token at start-up (stop-loss, take-profit, dca and trailing orders need one)."},
			"volume30dUsd": amount("30-day volume in whole US dollars (floor), both sides of every pair; the ranking key."),
		}),
		"TokenList": object([]string{"tokens"}, obj{"tokens": obj{"type": "array", "items": ref("Token"),
			"description": "By 30-day USD volume (highest first), then exact symbol match, then symbol."}}),
		"Spot": object([]string{"tokenIn", "tokenOut", "price", "block", "venue"}, obj{
			"tokenIn": ref("Address"), "tokenOut": ref("Address"),
			"price": amount("Fee-free price: raw tokenOut per whole tokenIn."), "block": obj{"type": "integer"},
			"venue":    obj{"type": "string", "description": "The best direct pool's family, or multi-hop (mid price through connectors)."},
			"amountIn": ref("UintString"), "amountOut": amount("amountIn at price, without price impact; present with amountIn."),
		}),
	}
}
