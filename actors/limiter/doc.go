// Package limiter holds the rate-limit actors of contract.md section 5: one
// actor per API key (and per client address for keyless endpoints) owning
// three sliding-window buckets.
//
// # Who owns what, and why the hot path is not a message
//
// Each subject (an API key id, or a client address) has one limiter actor
// in the actor registry (actors/kind). The actor owns its subject's window:
// the registry passivates it, and drops the state, once the subject has
// been idle for Options.Idle, so memory follows active keys; it answers
// Usage requests, and it is where a cluster's token leases hang.
//
// The per-request check does not go through the actor's mailbox. A
// protoactor Request/Future round trip costs microseconds
// (BenchmarkActorRoundTrip) plus a goroutine hand-off on each side, which
// alone would spend most of the 5 µs budget of the whole middleware chain.
// Instead Take runs on the request goroutine with the subject's shared
// state (kind.Registry.Use) and takes the state's own mutex for the few
// dozen nanoseconds a count needs (BenchmarkTake). The registry never
// passivates a subject while a Take is using it, so no request is counted
// into a dropped state.
package limiter
