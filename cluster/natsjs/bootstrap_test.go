package natsjs

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// TestSnapshotTransfer: two ready nodes serving snapshots both offer one
// to the third, with their positions; the snapshot received from the
// first, once installed in an empty folder, opens as a store holding
// every order the server's store held, at the positions its manifest
// gives. A piece outside the snapshot's files or sizes is refused, and a
// node serves at most snapshotSessions snapshots at once (it stops
// offering and refuses another open).
func TestSnapshotTransfer(t *testing.T) {
	nodes := startCluster(t, 3)
	first := freshOrders()
	const n = 30
	for i := range n {
		if err := create(nodes[i%3].journal, testOrder(first+i)); err != nil {
			t.Fatal(err)
		}
	}
	waitApplied(t, nodes)
	for _, tn := range nodes[:2] {
		if err := tn.node.ServeSnapshots(tn.store); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	client := nodes[2].node
	var offers []snapshotOffer
	// The servers' subscriptions reach the client's server over the
	// routes a moment later.
	waitFor(t, "an offer of each serving node", func() bool {
		offers = client.snapshotOffers(ctx, map[string]uint64{}, "")
		return len(offers) == 2
	})
	want, err := nodes[0].store.Positions()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range offers {
		if !maps.Equal(o.Positions, want) {
			t.Fatalf("%s offers positions %v; the stores hold %v", o.Node, o.Positions, want)
		}
	}
	// An offer behind a horizon is left out.
	behind := map[string]uint64{orderStream(0): want[orderStream(0)] + 1}
	if got := client.snapshotOffers(ctx, behind, ""); len(got) != 0 {
		t.Fatalf("offers past a horizon beyond every node: %+v", got)
	}

	dir := filepath.Join(t.TempDir(), "store")
	peer := offers[0]
	if _, err := client.receiveSnapshot(ctx, dir, peer); err != nil {
		t.Fatal(err)
	}
	_, installed, err := persistence.InstallSnapshot(dir)
	if err != nil || !installed {
		t.Fatalf("install: %v %v", installed, err)
	}
	st, err := persistence.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got, err := st.Positions(); err != nil || !maps.Equal(got, want) {
		t.Fatalf("the installed snapshot's positions %v (%v), want %v", got, err, want)
	}
	orders := orderstore.New(st, persistence.NewOutbox(st, nil, nil))
	for i := range n {
		rec := testOrder(first + i)
		got, ok, err := orders.Load(rec.Hash)
		if err != nil || !ok || got.Version != rec.Version {
			t.Fatalf("order %d in the installed snapshot: %+v %v %v", i, got, ok, err)
		}
	}

	// Pieces outside the snapshot are refused; sessions are bounded.
	server := nodes[0]
	var ids []string
	for range snapshotSessions {
		man, err := client.openSnapshot(ctx, server.cfg.Node)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, man.ID)
		file := man.Files[0]
		for _, bad := range []snapshotRequest{
			{ID: man.ID, File: "../" + file.Name, Length: 1},
			{ID: man.ID, File: file.Name, Offset: file.Size, Length: 1},
			{ID: man.ID, File: file.Name, Length: snapshotChunk + 1},
			{ID: "unknown", File: file.Name, Length: 1},
		} {
			if _, err := client.snapshotPiece(ctx, server.cfg.Node, bad); err == nil || !strings.Contains(err.Error(), server.cfg.Node) {
				t.Fatalf("piece %+v: %v, want it refused by the server", bad, err)
			}
		}
	}
	for _, o := range client.snapshotOffers(ctx, map[string]uint64{}, "") {
		if o.Node == server.cfg.Node {
			t.Fatalf("%s offers a snapshot while serving %d", o.Node, snapshotSessions)
		}
	}
	if _, err := client.openSnapshot(ctx, server.cfg.Node); err == nil || !strings.Contains(err.Error(), "as many") {
		t.Fatalf("a third open: %v, want it refused", err)
	}
	for _, id := range ids {
		body, _ := json.Marshal(snapshotRequest{Node: "test", ID: id})
		if _, err := client.nc.Request(client.snapshotNodeSubject(server.cfg.Node, "close"), body, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := client.openSnapshot(ctx, server.cfg.Node); err != nil {
		t.Fatalf("an open after the others closed: %v", err)
	}
}

// TestBootstrapDecides: a store at the cluster's positions follows the
// streams (no snapshot); a store behind a horizon the compaction recorded
// waits for a snapshot (here: until its context ends, nobody serving).
func TestBootstrapDecides(t *testing.T) {
	nodes := startCluster(t, 3)
	ctx := context.Background()
	if err := create(nodes[0].journal, testOrder(freshOrders())); err != nil {
		t.Fatal(err)
	}
	waitApplied(t, nodes)
	client := nodes[2].node
	local, err := nodes[2].store.Positions()
	if err != nil {
		t.Fatal(err)
	}
	if fetched, err := client.Bootstrap(ctx, LocalStore{Dir: t.TempDir(), Positions: local}); err != nil || fetched {
		t.Fatalf("a store at the cluster's positions: fetched %v (%v)", fetched, err)
	}
	removed := map[string]uint64{orderStream(1): 5}
	data, _ := json.Marshal(horizon{Removed: removed, At: time.Now().UTC()})
	if _, err := client.js.Publish(ctx, leaseSubject(horizonName), data); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.purge(context.Background(), leaseStream, leaseSubject(horizonName), 0)
	})
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	fetched, err := client.Bootstrap(wctx, LocalStore{Dir: t.TempDir(), Positions: map[string]uint64{orderStream(1): 4}})
	if fetched || err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("a store behind the horizon, nobody serving: fetched %v (%v), want a wait until the deadline", fetched, err)
	}
}

// TestClaimRestore: the first node of a cluster records the backup its
// store was restored from; a node restored from the same one passes, a
// node not restored, or restored from another, is refused, and an empty
// node's bootstrap then waits for a snapshot of a store of that backup
// (here: until its context ends, nobody serving). A cluster formed by a
// node that was not restored refuses a restored node.
func TestClaimRestore(t *testing.T) {
	nodes := startCluster(t, 3)
	ctx := context.Background()
	if err := nodes[0].node.ClaimRestore(ctx, "backup-x"); err != nil {
		t.Fatal(err)
	}
	if err := nodes[1].node.ClaimRestore(ctx, "backup-x"); err != nil {
		t.Fatalf("a node of the same backup: %v", err)
	}
	for id, want := range map[string]string{"": "was not", "backup-y": "the cluster from backup backup-x"} {
		if err := nodes[2].node.ClaimRestore(ctx, id); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("a node restored from %q: %v, want it refused (%q)", id, err, want)
		}
	}
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	fetched, err := nodes[2].node.Bootstrap(wctx, LocalStore{Dir: t.TempDir()})
	if fetched || err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("an empty store of a restored cluster, nobody serving: fetched %v (%v), want a wait", fetched, err)
	}

	if err := nodes[0].node.purge(ctx, leaseStream, leaseSubject(restoreMarker), 0); err != nil {
		t.Fatal(err)
	}
	if err := nodes[0].node.ClaimRestore(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if err := nodes[1].node.ClaimRestore(ctx, "backup-x"); err == nil || !strings.Contains(err.Error(), "formed without it") {
		t.Fatalf("a restored node in a cluster formed without it: %v", err)
	}
}
