// Package accounts is the self-service side of an account: Sign-In with
// Ethereum (EIP-4361, siwe.go) with single-use nonces, the session it
// opens, the account with its linked wallets, its API keys and its tier
// application (docs/accounts.md). Sessions are stored by
// accountstore.Sessions; the HTTP layer carries them in a cookie and checks
// the CSRF token and the origin of every state-changing call.
package accounts
