// Package orderstore keeps the order records in the persistence store:
// each order's Record in its binary codec (record.go, codec.go), its list
// indexes and the referral binding of its maker (keys.go), its ledger of
// the chain logs its events were emitted for (ledger.go), and the referee
// index of each referrer (referees.go). Store is the order journal of the
// order actors (Journal): every change of an order is one AppendOrder,
// conditional on the version the actor loaded, that writes the new record,
// its index moves, ledger entries, binding and outbox events
// (persistence.Outbox.Stage) atomically through the core's group
// committer. In a cluster the changes travel in replicated order logs in
// the transition codec (transition.go), and every node applies them with
// an ApplyBatch (apply.go), which records how far it got.
//
// The keys are under the order prefixes of persistence/keys.go
// (persistence.PrefixOrder, PrefixIndex, PrefixBinding, PrefixReferee,
// PrefixLedger, PrefixOrderLog, PrefixClosed); the key builders are here.
// The order records' schema steps (1 to 2, 2 to 3) are Migrations, which
// the engine passes to persistence.OpenWith with the other stores' steps.
package orderstore
