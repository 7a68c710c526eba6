// Package webhook is the webhook endpoint actor kind and its manager
// (specification section 6, contract.md section 7).
//
// Each endpoint is an actor (endpoint.go), identified by the endpoint id in
// an actors/kind registry: the only owner of the endpoint's record
// (enabled, failure streak, last success, disabled reason, secret), its
// queue and its deliveries, and their only writer, through the delivery
// journal (webhookstore.DeliveryJournal). Its attempts run in goroutines of
// their own and report back as messages; the actor decides each outcome
// and writes it conditional on the delivery's version it holds. The
// endpoint actors never passivate (Kind.Idle 0): an actor holds the timers
// of its endpoint's retries and its attempts in flight, and an account has
// at most webhooks.maxEndpoints endpoints, so an endpoint's actor lives as
// long as the endpoint; a deleted endpoint's actor is stopped.
//
// The Manager holds nothing about any endpoint. Management (api.go) reads
// the store or asks the endpoint's actor (manage.go). The fan-out
// (fanout.go) hands each account's outbox events to every endpoint actor
// of the account, which creates the deliveries it wants, idempotently,
// before the account's outbox cursor moves past the events; a delivery references its event's
// body, stored once per event and deleted with the event's last delivery. The outbox only signals which accounts have new
// events (persistence.Outbox.Changed); a sweep every 10 s is the safety
// net. Delivery is at-least-once, and receivers dedupe on
// X-Service-Delivery.
//
// An endpoint's queue (queue.go) keeps the events of each order in
// sequence: one delivery of an order in flight at a time, the next due
// once it is settled; other orders are not held back.
//
// Each attempt is a signed POST (signature.go) with a 10 s budget; failures
// are retried on the configured schedule with jitter or after the
// receiver's Retry-After; an endpoint whose attempts all failed for the
// disable horizon is disabled until re-created. Targets are checked at
// creation and again at every dial (ssrf.go), so DNS rebinding cannot reach
// internal addresses outside dev mode.
//
// In a cluster (cluster.go) every node runs the actors and the fan-out
// over the replicated records, and only an endpoint's owner sends.
//
// Time comes from an injectable clock: with a manual clock, tests move time
// and call Manager.Wake instead of sleeping.
package webhook
