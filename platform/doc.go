// Package platform is the referral (platform) product: the indexer sink
// that records every referral leg the router pays and the filled volume of
// bound wallets (persistence/chainstore/platform.go), and the service behind
// GET /v1/platform/fee-accruals and GET /v1/platform/referees, scoped to
// the caller's linked wallets used as referrers (docs/platform.md).
package platform
