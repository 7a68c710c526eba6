package clustertest

import (
	"testing"

	"github.com/orderengine/orderengine/http/contracttest"
)

// TestHTTPContractOnACluster runs the HTTP contract of every described
// operation (package contracttest, which package http's TestHTTPContract
// runs against one engine) against a node of a three-member cluster: each
// test's account is made on the first node and used on the third.
func TestHTTPContractOnACluster(t *testing.T) {
	contracttest.Run(t, contracttest.Cluster(t, 3))
}
