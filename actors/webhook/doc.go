// Package webhook is the webhook endpoint actor kind and its manager
// (specification section 6, contract.md section 7).
//
// The Manager owns every endpoint: the management operations (api.go), one
// endpoint actor per endpoint (endpoint.go), and the fan-out that moves the
// events producers wrote into the account's outbox (persistence/outbox.go)
// into the delivery queue of each enabled, subscribed endpoint, deleting
// them from the outbox in the same synced batch. A delivery is therefore
// persisted before its first attempt; every attempt's outcome is persisted
// too (deliver.go), and outstanding deliveries are reloaded at start:
// delivery is at-least-once, receivers dedupe on X-Service-Delivery.
//
// Each attempt is a signed POST (signature.go) with a 10 s budget; failures
// are retried on the configured schedule with jitter or after the
// receiver's Retry-After; an endpoint whose attempts all failed for the
// disable horizon is disabled until re-created. Targets are checked at
// creation and again at every dial (ssrf.go), so DNS rebinding cannot reach
// internal addresses outside dev mode.
//
// Time comes from an injectable clock: with a manual clock, tests move time
// and call Manager.Wake instead of sleeping.
package webhook
