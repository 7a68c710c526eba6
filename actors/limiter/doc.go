// Package limiter holds the rate-limit actors of contract.md section 5: one
// actor per API key (and per client address for keyless endpoints) owning
// three sliding-window buckets, and the per-maker submit limiter the order
// path calls.
//
// # Who owns what, and why the hot path is not a message
//
// Each subject (an API key id, or a client address) has one limiter actor.
// The actor owns its subject's state: it is spawned with the state, decides
// when the subject has gone idle, removes the state from the registry and
// stops itself, so memory follows active keys. It also answers Usage
// requests.
//
// The per-request check does not go through the actor's mailbox. A
// protoactor Request/Future round trip costs microseconds
// (BenchmarkActorRoundTrip) plus a goroutine hand-off on each side, which
// alone would spend most of the 5 µs budget of the whole middleware chain.
// Instead the request goroutine takes the state's own mutex for the few
// dozen nanoseconds a Take needs (BenchmarkTake). Correctness with the
// actor's retirement: retiring happens under the same mutex and marks the
// state dead; a Take that finds its state dead looks the subject up again
// and gets a fresh actor, so no request is ever counted into a retired
// state.
package limiter
