// Package clustertest holds the tests of several engine nodes (app.System)
// running as one cluster in one process: their members find each other
// through an in-memory agent (cluster/members), their account data and
// orders replicate through the embedded JetStream (apptest.NewTestCluster),
// and the tests speak to them through the public HTTP API. It has no code
// of its own.
//
// The tests run without the race detector (make test's plain step):
// protoactor-go's remote sets grpc's global logger on every member's
// start without synchronization, so several members in one process are
// never race-clean; one member per process, as in production, does not
// meet that race. The concurrent code of the cluster kinds runs under the
// race detector in their packages' own tests.
package clustertest
