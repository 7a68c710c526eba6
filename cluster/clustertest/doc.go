// Package clustertest holds the tests of several engine nodes (app.System)
// running as one cluster in one process: their account data and orders
// replicate through the embedded JetStream servers, their members
// (cluster/members) hold their leases and call each other through them
// (apptest.NewTestCluster), and the tests speak to them through the
// public HTTP API. It has no code of its own.
//
// make test runs them in its plain step, without the race detector, for
// time: three engines in one process under it take several times as long.
// The concurrent code of the members and the cluster kinds runs under the
// race detector in their own packages' tests.
package clustertest
