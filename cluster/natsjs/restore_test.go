package natsjs

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// streamMsgs returns how many messages the order streams and the shared
// log of tn's cluster hold.
func streamMsgs(t *testing.T, tn *testNode) uint64 {
	t.Helper()
	var total uint64
	for _, name := range []string{sharedStream, orderStream(0), orderStream(1), orderStream(2), orderStream(3)} {
		s, err := tn.node.js.Stream(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		total += s.CachedInfo().State.Msgs
	}
	return total
}

func wantCode(t *testing.T, what string, err error, code orderengine.Code) {
	t.Helper()
	var oe *orderengine.Error
	if !errors.As(err, &oe) || oe.Code != code {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
}

// TestBackupRestore: orders (some cancelled), an account and its keys (one
// disabled) written on one cluster are backed up; a corrupted or
// truncated copy is refused by a new cluster with nothing written; the
// backup restores into it, every node of it rebuilds the same store as the
// first cluster's nodes, the key authenticates there, a resubmitted order
// is refused, and a second restore is refused.
func TestBackupRestore(t *testing.T) {
	src := startCluster(t, 3)
	first := freshOrders()
	writeOrders(t, first, 18, src...)
	accts := accountstore.NewAccounts(src[0].store, nil)
	acct, err := accts.CreateAccount("backup", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := accts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	goneKey, gone, err := accts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accts.DisableKey(gone.ID); err != nil {
		t.Fatal(err)
	}
	assertSameStores(t, src)

	var backup bytes.Buffer
	if err := src[1].node.Backup(context.Background(), &backup); err != nil {
		t.Fatal(err)
	}
	h, err := ReadBackup(bytes.NewReader(backup.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range h.Streams {
		if s.Name == leaseStream {
			t.Fatalf("the backup holds the lease stream")
		}
	}
	if h.OrderPartitions != 4 || len(h.Streams) != 5 {
		t.Fatalf("header: %+v", h)
	}

	dst := startCluster(t, 3)
	for what, bad := range map[string][]byte{
		"truncated": backup.Bytes()[:backup.Len()*2/3],
		"corrupted": corrupt(t, backup.Bytes()),
		"empty":     nil,
	} {
		_, err := dst[0].node.Restore(context.Background(), bytes.NewReader(bad))
		wantCode(t, what, err, orderengine.CodeInvalidRequest)
		if n := streamMsgs(t, dst[0]); n != 0 {
			t.Fatalf("%s: the refused restore wrote %d messages", what, n)
		}
	}
	res, err := dst[2].node.Restore(context.Background(), bytes.NewReader(backup.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if want := streamMsgs(t, src[0]); res.Messages != want || streamMsgs(t, dst[0]) != want {
		t.Fatalf("restored %d messages (the cluster holds %d), the backup's cluster %d", res.Messages, streamMsgs(t, dst[0]), want)
	}
	assertSameStores(t, append(append([]*testNode{}, src...), dst...))

	wantShared, err := src[0].store.SharedPosition(sharedStream)
	if err != nil || wantShared == 0 {
		t.Fatalf("shared position %d: %v", wantShared, err)
	}
	for _, tn := range dst {
		waitFor(t, tn.cfg.Node+" to apply the shared log", func() bool {
			got, err := tn.store.SharedPosition(sharedStream)
			return err == nil && got == wantShared
		})
		a := accountstore.NewAccounts(tn.store, nil)
		if _, err := a.Authenticate(key); err != nil {
			t.Fatalf("the backed-up key on %s of the restored cluster: %v", tn.cfg.Node, err)
		}
		_, err := a.Authenticate(goneKey)
		wantCode(t, "the disabled key on the restored cluster", err, orderengine.CodeKeyDisabled)
	}
	// A create of an order the restored streams hold is refused as one
	// on the cluster that took it first (the registry answers it
	// ALREADY_EXISTS).
	if err := create(dst[0].journal, testOrder(first)); !errors.Is(err, orderstore.ErrVersionConflict) {
		t.Fatalf("resubmit of a restored order: %v, want a version conflict", err)
	}

	_, err = dst[0].node.Restore(context.Background(), bytes.NewReader(backup.Bytes()))
	wantCode(t, "restore into a cluster holding data", err, orderengine.CodeAlreadyExists)
}

// corrupt returns the backup with one byte of its uncompressed content
// changed (recompressed, so only the checksum can tell).
func corrupt(t *testing.T, backup []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(backup))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(plain), `"data":"`) + len(`"data":"`)
	if plain[i] == 'A' {
		plain[i] = 'B'
	} else {
		plain[i] = 'A'
	}
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	_, _ = zw.Write(plain)
	_ = zw.Close()
	return out.Bytes()
}

// TestRestoreRefusesOtherPartitions: a well-formed backup of a cluster
// with another cluster.orderPartitions is refused before anything is
// written.
func TestRestoreRefusesOtherPartitions(t *testing.T) {
	nodes := sharedCluster(t)
	header := `{"format":"orderengine-cluster-backup","version":1,"cluster":"x","node":"n0","orderPartitions":8,"streams":[]}` + "\n"
	sum := sha256.Sum256([]byte(header))
	var backup bytes.Buffer
	zw := gzip.NewWriter(&backup)
	_, _ = zw.Write([]byte(header + `{"end":true,"messages":0,"sha256":"` + hex.EncodeToString(sum[:]) + `"}` + "\n"))
	_ = zw.Close()
	if _, err := ReadBackup(bytes.NewReader(backup.Bytes()), nil); err != nil {
		t.Fatalf("the hand-made backup does not read back: %v", err)
	}
	_, err := nodes[0].node.Restore(context.Background(), bytes.NewReader(backup.Bytes()))
	wantCode(t, "other partitions", err, orderengine.CodeInvalidRequest)
	if !strings.Contains(err.Error(), "orderPartitions 8") {
		t.Fatalf("error: %v", err)
	}
}

// TestRestoreWindow: a window of messages lands at its sequences; the same
// window again is acknowledged by the message ids without a message more;
// a window behind a write of another kind falls back to one message at a
// time and stops with INVALID_REQUEST naming the stream.
func TestRestoreWindow(t *testing.T) {
	n := sharedCluster(t)[0].node
	ctx := context.Background()
	s, err := n.js.CreateStream(ctx, jetstream.StreamConfig{Name: "RESTORE_WINDOW", Subjects: []string{"restorewindow.>"}, Replicas: 3,
		Storage: jetstream.FileStorage, Duplicates: dupWindow})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.js.DeleteStream(context.Background(), "RESTORE_WINDOW") })
	window := func(from, to uint64) []*BackupMessage {
		var out []*BackupMessage
		for seq := from; seq <= to; seq++ {
			out = append(out, &BackupMessage{Stream: "RESTORE_WINDOW", Seq: seq, Subject: "restorewindow.a",
				Header: map[string][]string{"Nats-Msg-Id": {fmt.Sprint("w", seq)}, "Nats-Expected-Last-Subject-Sequence": {"99"}},
				Data:   []byte(fmt.Sprint("message ", seq))})
		}
		return out
	}
	msgs := func() uint64 {
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Msgs
	}
	for range 2 {
		if err := n.republishWindow(ctx, window(1, 3)); err != nil {
			t.Fatal(err)
		}
		if got := msgs(); got != 3 {
			t.Fatalf("the stream holds %d messages, want 3", got)
		}
	}
	for seq := uint64(1); seq <= 3; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil || string(m.Data) != fmt.Sprint("message ", seq) || m.Header.Get("Nats-Expected-Last-Subject-Sequence") != "" {
			t.Fatalf("message %d: %v %+v", seq, err, m)
		}
	}
	if _, err := n.js.Publish(ctx, "restorewindow.b", []byte("another writer")); err != nil {
		t.Fatal(err)
	}
	err = n.republishWindow(ctx, window(4, 6))
	wantCode(t, "a window behind another write", err, orderengine.CodeInvalidRequest)
	if !strings.Contains(err.Error(), "RESTORE_WINDOW took another write before message 4") {
		t.Fatalf("error: %v", err)
	}
}
