package http

// accountSchemas are the component schemas of the accounts and platform
// operations (contract.md section 10). Every field is declared.
func accountSchemas() obj {
	nullableTime := obj{"type": []string{"string", "null"}, "format": "date-time"}
	nullableStr := func(desc string) obj { return obj{"type": []string{"string", "null"}, "description": desc} }
	tokenAmount := ref("TokenAmount")
	return obj{
		"KeyID":       pattern(`^key_[0-9A-Za-z]{16}$`, "API key id (public; the secret is never shown again)."),
		"CSRFToken":   pattern(`^[0-9A-Za-z]{43}$`, "A session's anti-forgery token (csrfToken)."),
		"UnixSeconds": obj{"type": "integer", "minimum": 0, "description": "A time as unix seconds."},
		"AuthNonce": described(closed(object([]string{"nonce"}, obj{
			"nonce": pattern(`^[0-9A-Za-z]{24}$`, "Put it in the message's Nonce line. Single use; valid for accounts.nonceTTL (10 min)."),
		})), "A fresh sign-in nonce."),
		"SignInRequest": described(closed(object([]string{"message", "signature"}, obj{
			"message":   obj{"type": "string", "maxLength": 4096, "description": "The EIP-4361 message text, exactly as signed (LF line ends)."},
			"signature": refDesc("HexBytes", "The wallet's EIP-191 personal_sign signature of message: 65 bytes r‖s‖v from an EOA, or what the wallet contract's isValidSignature (EIP-1271) accepts."),
		})), "A signed Sign-In with Ethereum message (docs/accounts.md, Sign-in)."),
		"SignInResult": described(closed(object([]string{"account", "csrfToken", "expiresAt"}, obj{
			"account":   ref("Account"),
			"csrfToken": refDesc("CSRFToken", "Send it in X-CSRF-Token on every state-changing session call."),
			"expiresAt": described(dateTime(), "When the session ends (accounts.sessionTTL after sign-in)."),
		})), "The session opened; its token is in the Set-Cookie header only (HttpOnly)."),
		"TierApplication": described(closed(object([]string{"tier", "status", "useCase", "expectedVolume", "submittedAt", "decidedAt", "reason"}, obj{
			"tier":           obj{"type": "string", "enum": []string{"builder"}, "description": "The tier applied for."},
			"status":         obj{"type": "string", "enum": []string{"pending", "approved", "declined"}, "description": "pending until an operator approves (the account's tier changes at once) or declines."},
			"useCase":        str("What the account builds, as applied."),
			"expectedVolume": str("The expected volume, as applied."),
			"submittedAt":    dateTime(),
			"decidedAt":      nullableTime,
			"reason":         nullableStr("The operator's note on the decision; null when none."),
		})), "A tier application and its state."),
		"Account": described(closed(object([]string{"id", "name", "tier", "wallets", "createdAt", "tierApplication"}, obj{
			"id":              pattern(`^acc_[0-9A-Za-z]{16}$`, "Account id."),
			"name":            str("Display name: the first wallet for an account made by sign-in."),
			"tier":            obj{"type": "string", "enum": []string{"free", "builder", "enterprise"}, "description": "Rate-limit tier of the account's keys and sessions."},
			"wallets":         described(arrayOf(ref("Address")), "Linked wallets, in the order linked: they sign in to this account, and are the referrers of the platform lists."),
			"createdAt":       dateTime(),
			"tierApplication": obj{"oneOf": []obj{ref("TierApplication"), {"type": "null"}}, "description": "The latest tier application; null when none."},
			"csrfToken":       refDesc("CSRFToken", "The session's anti-forgery token; present only when a session made the call."),
		})), "The caller's account."),
		"LinkWalletRequest": described(closed(object([]string{"address", "message", "signature"}, obj{
			"address":   ref("Address"),
			"message":   obj{"type": "string", "maxLength": 4096, "description": "An EIP-4361 message signed in as address, with the statement \"Link this wallet to account <account id>.\" and a fresh nonce."},
			"signature": refDesc("HexBytes", "The wallet's EIP-191 signature of message (EOA or EIP-1271)."),
		})), "A wallet's signed consent to be linked to the account."),
		"AccountKey": described(closed(object(keyFields, keyProps())), "An API key, without its secret."),
		"KeyList":    described(closed(object([]string{"keys"}, obj{"keys": arrayOf(ref("AccountKey"))})), "The account's keys, oldest first."),
		"CreateKeyRequest": described(closed(object(nil, obj{
			"name": obj{"type": "string", "maxLength": 100, "description": "A label for the key (optional)."},
		})), "A new key's name; {} for none."),
		"CreatedKey": described(closed(object(append([]string{"key"}, keyFields...), createdKeyProps())), "A new API key with its secret: every field of AccountKey and key."),
		"TierApplicationRequest": described(closed(object([]string{"tier", "useCase", "expectedVolume"}, obj{
			"tier":           obj{"type": "string", "enum": []string{"builder"}},
			"useCase":        obj{"type": "string", "minLength": 1, "maxLength": 2000, "description": "What the account builds."},
			"expectedVolume": obj{"type": "string", "minLength": 1, "maxLength": 200, "description": "Expected requests or orders, in your words (e.g. \"5k orders a day\")."},
		})), "An application for the builder tier."),
		"TokenAmount": described(closed(object([]string{"token", "amount"}, obj{"token": ref("Address"), "amount": ref("UintString")})), "A raw amount of one token."),
		"FeeAccrual": described(closed(object([]string{"orderHash", "txHash", "blockNumber", "logIndex", "referrer", "token", "amount", "timestamp"}, obj{
			"orderHash":   obj{"oneOf": []obj{ref("Hash"), {"type": "null"}}, "description": "The filled order; null for the referral leg of a direct swap (router.swap)."},
			"txHash":      ref("Hash"),
			"blockNumber": obj{"type": "integer", "minimum": 0},
			"logIndex":    obj{"type": "integer", "minimum": 0},
			"referrer":    refDesc("Address", "The linked wallet paid."),
			"token":       refDesc("Address", "The token paid: the order's tokenOut."),
			"amount":      refDesc("UintString", "The referral leg paid, raw units, exactly as the router's event says."),
			"timestamp":   refDesc("UnixSeconds", "Block time."),
		})), "One referral fee leg paid on-chain."),
		"FeeAccrualList": described(closed(object([]string{"accruals", "totals", "nextCursor"}, obj{
			"accruals":   arrayOf(ref("FeeAccrual")),
			"totals":     described(arrayOf(tokenAmount), "Sum per token of every leg the query selects (all pages, not this page), by token address."),
			"nextCursor": obj{"type": []string{"string", "null"}, "description": "Cursor of the next page; null at the end."},
		})), "A page of referral fee legs, newest first (block time, block, log index)."),
		"Referee": described(closed(object([]string{"wallet", "referrer", "boundAt", "firstOrderHash", "orders", "volumeIn"}, obj{
			"wallet":         refDesc("Address", "The bound wallet."),
			"referrer":       refDesc("Address", "The linked wallet it is bound to."),
			"boundAt":        described(nullableTime, "When its binding order was accepted; null when this engine no longer holds that order."),
			"firstOrderHash": obj{"oneOf": []obj{ref("Hash"), {"type": "null"}}, "description": "The order that bound it (its first order naming referrer)."},
			"orders":         obj{"type": "integer", "minimum": 0, "description": "Its orders held by this engine, every status."},
			"volumeIn":       described(arrayOf(tokenAmount), "tokenIn filled by its orders naming referrer, per token, raw units."),
		})), "A wallet bound to one of the account's referrers."),
		"RefereeList": described(closed(object([]string{"referees", "nextCursor"}, obj{
			"referees":   arrayOf(ref("Referee")),
			"nextCursor": obj{"type": []string{"string", "null"}, "description": "Cursor of the next page; null at the end."},
		})), "A page of referees, by referrer then wallet address."),
	}
}

var keyFields = []string{"id", "name", "prefix", "createdAt", "lastUsedAt", "disabled", "disabledAt", "replacedBy"}

// keyProps are the properties of AccountKey.
func keyProps() obj {
	nullableTime := obj{"type": []string{"string", "null"}, "format": "date-time"}
	return obj{
		"id":         ref("KeyID"),
		"name":       str("The owner's label (empty when none)."),
		"prefix":     pattern(`^svc_[0-9A-Za-z]{4}$`, "The key's first characters, to tell keys apart."),
		"createdAt":  dateTime(),
		"lastUsedAt": described(obj{"type": []string{"string", "null"}, "format": "date-time"}, "Start of the last minute the key authenticated a request in (kept to the minute, written about every 30 s); null when never used."),
		"disabled":   obj{"type": "boolean", "description": "A disabled key is refused with 401 KEY_DISABLED."},
		"disabledAt": nullableTime,
		"replacedBy": obj{"type": []string{"string", "null"}, "description": "The key a reissue created in its place."},
	}
}

// createdKeyProps are AccountKey's properties and the secret.
func createdKeyProps() obj {
	p := keyProps()
	p["key"] = pattern(`^svc_[0-9A-Za-z]{38}$`, "The secret API key: shown in this answer only, never again.")
	return p
}
