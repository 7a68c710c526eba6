package http

import "github.com/orderengine/orderengine"

var (
	pKeyID    = pathParam("id", "KeyID", "API key id (key_…).")
	pWallet   = pathParam("address", "Address", "The linked wallet, 0x-prefixed (lowercase or EIP-55).")
	pCSRF     = ParamDoc{Name: headerCSRF, In: "header", Schema: "CSRFToken", Required: true, Description: "The session's csrfToken (sign-in answer or GET /v1/account); every state-changing session call sends it."}
	pReferrer = q("referrer", "Address", "Only this referrer: one of the account's linked wallets (another address is 403 FORBIDDEN). Omitted: every linked wallet.", false)
)

// errsSession are the codes every state-changing session call may answer
// besides the shared ones: FORBIDDEN without the CSRF token or from another
// origin; in cluster mode NO_QUORUM while the account data cannot be
// written durably (docs/cluster-durability.md).
var errsSession = []orderengine.Code{orderengine.CodeForbidden, orderengine.CodeNoQuorum}

// accountRoutes are the sign-in, account, key and platform routes
// (contract.md section 10, docs/accounts.md, docs/platform.md).
func accountRoutes() []Route {
	c := func(codes ...orderengine.Code) []orderengine.Code {
		return append(append([]orderengine.Code{}, errsSession...), codes...)
	}
	return []Route{
		{Method: "GET", Path: "/v1/auth/nonce", Access: Keyless, Status: 200, call: callNonce,
			Doc: OpDoc{ID: "getAuthNonce", Tag: "accounts", Summary: "A single-use nonce for a Sign-In with Ethereum (EIP-4361) message.", Response: "AuthNonce"}},
		{Method: "POST", Path: "/v1/auth/signin", Access: Keyless, Status: 200, JSONBody: true, call: callSignIn,
			Doc: OpDoc{ID: "signIn", Tag: "accounts", Summary: "Sign in with an EIP-4361 message signed by a wallet; opens a session (cookie).", Request: "SignInRequest", Response: "SignInResult",
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeBadSignature, orderengine.CodeUnauthorized, orderengine.CodeForbidden, orderengine.CodeChainUnavailable,
					orderengine.CodeNoQuorum}}},
		{Method: "POST", Path: "/v1/auth/signout", Access: Keyless, Status: 200, call: callSignOut,
			Doc: OpDoc{ID: "signOut", Tag: "accounts", Summary: "End the session and clear its cookie.", Response: "SuccessResponse",
				Params: []ParamDoc{{Name: headerCSRF, In: "header", Schema: "CSRFToken", Description: "The session's csrfToken; needed to end a live session."}},
				Errors: []orderengine.Code{orderengine.CodeForbidden, orderengine.CodeNoQuorum}}},

		{Method: "GET", Path: "/v1/account", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callAccount,
			Doc: OpDoc{ID: "getAccount", Tag: "accounts", Summary: "The caller's account: tier, linked wallets, tier application.", Response: "Account"}},
		{Method: "POST", Path: "/v1/account/wallets", Access: ReadBucket, Auth: AuthSession, Status: 201, JSONBody: true, call: callLinkWallet,
			Doc: OpDoc{ID: "linkWallet", Tag: "accounts", Summary: "Link a wallet to the account with its signature of an EIP-4361 link message.", Request: "LinkWalletRequest", Response: "Account",
				Params: []ParamDoc{pCSRF}, Errors: c(orderengine.CodeInvalidRequest, orderengine.CodeBadSignature, orderengine.CodeAlreadyExists, orderengine.CodeLimitReached, orderengine.CodeChainUnavailable)}},
		{Method: "DELETE", Path: "/v1/account/wallets/:address", Access: ReadBucket, Auth: AuthSession, Status: 200, call: callUnlinkWallet,
			Doc: OpDoc{ID: "unlinkWallet", Tag: "accounts", Summary: "Unlink a wallet from the account.", Response: "Account",
				Params: []ParamDoc{pWallet, pCSRF}, Errors: c(orderengine.CodeInvalidRequest, orderengine.CodeNotFound)}},
		{Method: "GET", Path: "/v1/account/keys", Access: ReadBucket, Auth: AuthSession, Status: 200, call: callListKeys,
			Doc: OpDoc{ID: "listAccountKeys", Tag: "accounts", Summary: "The account's API keys: prefix, name, created, last used (never the secret).", Response: "KeyList"}},
		{Method: "POST", Path: "/v1/account/keys", Access: ReadBucket, Auth: AuthSession, Status: 201, JSONBody: true, call: callCreateKey,
			Doc: OpDoc{ID: "createAccountKey", Tag: "accounts", Summary: "Create an API key; its secret is in this answer only.", Request: "CreateKeyRequest", Response: "CreatedKey",
				Params: []ParamDoc{pCSRF}, Errors: c(orderengine.CodeInvalidRequest, orderengine.CodeLimitReached)}},
		{Method: "POST", Path: "/v1/account/keys/:id/disable", Access: ReadBucket, Auth: AuthSession, Status: 200, call: callDisableKey,
			Doc: OpDoc{ID: "disableAccountKey", Tag: "accounts", Summary: "Disable an API key at once.", Response: "AccountKey",
				Params: []ParamDoc{pKeyID, pCSRF}, Errors: c(orderengine.CodeNotFound)}},
		{Method: "POST", Path: "/v1/account/keys/:id/reissue", Access: ReadBucket, Auth: AuthSession, Status: 201, call: callReissueKey,
			Doc: OpDoc{ID: "reissueAccountKey", Tag: "accounts", Summary: "Replace an API key: the old one is disabled, the new secret is in this answer only.", Response: "CreatedKey",
				Params: []ParamDoc{pKeyID, pCSRF}, Errors: c(orderengine.CodeNotFound, orderengine.CodeAlreadyExists)}},
		{Method: "POST", Path: "/v1/account/tier-application", Access: ReadBucket, Auth: AuthSession, Status: 201, JSONBody: true, call: callTierApplication,
			Doc: OpDoc{ID: "applyForTier", Tag: "accounts", Summary: "Apply for the builder tier; pending until an operator decides.", Request: "TierApplicationRequest", Response: "TierApplication",
				Params: []ParamDoc{pCSRF}, Errors: c(orderengine.CodeInvalidRequest, orderengine.CodeAlreadyExists)}},

		{Method: "GET", Path: "/v1/platform/fee-accruals", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callFeeAccruals,
			Doc: OpDoc{ID: "listFeeAccruals", Tag: "platform", Summary: "Referral fee legs paid to the account's linked wallets, newest first, with totals per token; keyset-paginated.", Response: "FeeAccrualList",
				Params: []ParamDoc{pReferrer, q("token", "Address", "Only legs paid in this token.", false),
					q("from", "UnixSeconds", "Only legs in blocks at or after this time (unix seconds).", false),
					q("to", "UnixSeconds", "Only legs in blocks before this time (unix seconds).", false), pLimit, pCursor},
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeForbidden}}},
		{Method: "GET", Path: "/v1/platform/referees", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callReferees,
			Doc: OpDoc{ID: "listReferees", Tag: "platform", Summary: "Wallets bound to the account's linked wallets as referrers, with their orders and filled volume; keyset-paginated.", Response: "RefereeList",
				Params: []ParamDoc{pReferrer, pLimit, pCursor}, Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeForbidden}}},
	}
}
