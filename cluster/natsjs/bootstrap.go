package natsjs

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/persistence"
)

// Snapshot bootstrap: a node whose store is empty, or behind what the
// compaction removed from the streams (compact.go), starts from a ready
// peer's snapshot of its store (a Pebble checkpoint, persistence
// snapshot.go) and follows the streams from the positions the snapshot
// holds, instead of replaying the streams from their first message (which
// the compaction no longer keeps).
//
// Every node serves snapshots of its store once it is ready
// (ServeSnapshots), over NATS requests on its cluster's connection:
//
//	oe.<cluster>.snapshot.offer               who offers one; every ready node answers with its positions
//	oe.<cluster>.snapshot.node.<node>.open    make a checkpoint; answers its manifest (files, sizes, positions)
//	oe.<cluster>.snapshot.node.<node>.chunk   one piece of one file (snapshotChunk bytes, CRC-32C in a header)
//	oe.<cluster>.snapshot.node.<node>.close   drop the checkpoint
//
// A node that needs one (Bootstrap) asks for offers, picks the peer
// furthest ahead whose positions are all past the compaction's horizon,
// reports that peer's positions as its own applied positions for a while
// (so the compaction does not remove what the snapshot will not hold
// while it is received), receives every file with up to snapshotInFlight
// pieces in flight into <dataDir>/snapshot.incoming, syncs them and marks
// the snapshot whole. The caller installs it with the store closed
// (persistence.InstallSnapshot) and calls Bootstrap again with the new
// store's positions, which then holds: were they behind a horizon that
// moved meanwhile, it starts over.

// Snapshot transfer settings.
const (
	// snapshotChunk is one piece of a file (the NATS payload limit is
	// 1 MiB).
	snapshotChunk = 512 << 10
	// snapshotInFlight is how many pieces a receiver has asked for at once.
	snapshotInFlight = 8
	// snapshotSessions bounds the snapshots a node serves at once.
	snapshotSessions = 2
	// snapshotIdle drops a served snapshot nobody asked a piece of for that
	// long.
	snapshotIdle = 2 * time.Minute
	// snapshotOfferWait is how long a request for offers waits for a
	// first answer; snapshotOfferMore how long it collects more after it.
	snapshotOfferWait = time.Second
	snapshotOfferMore = 100 * time.Millisecond
	// snapshotPreferWait is how long an empty node waits for an offer
	// before it replays streams that the compaction never cut.
	snapshotPreferWait = 10 * time.Second
	// snapshotHoldTTL is how long the positions reported while a snapshot
	// is received hold the compaction back (renewed while receiving).
	snapshotHoldTTL = 10 * time.Minute
	// snapshotLogEvery spaces the progress lines.
	snapshotLogEvery = 5 * time.Second
	// snapshotRequestTimeout bounds one request of the transfer; open
	// makes a checkpoint, which flushes the memtable.
	snapshotRequestTimeout = 30 * time.Second
)

// SnapshotManifest describes a served snapshot.
type SnapshotManifest struct {
	ID        string            `json:"id"`
	Node      string            `json:"node"`
	Created   time.Time         `json:"created"`
	Positions map[string]uint64 `json:"positions"`
	Files     []SnapshotFile    `json:"files"`
}

// SnapshotFile is one file of a snapshot.
type SnapshotFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// Bytes is the snapshot's size.
func (m *SnapshotManifest) Bytes() int64 {
	var n int64
	for _, f := range m.Files {
		n += f.Size
	}
	return n
}

type snapshotOffer struct {
	Node      string            `json:"node"`
	Positions map[string]uint64 `json:"positions"`
	// Restored is the backup the serving store was restored from.
	Restored string `json:"restored,omitempty"`
}

type snapshotRequest struct {
	Node   string `json:"node"` // the requester
	ID     string `json:"id,omitempty"`
	File   string `json:"file,omitempty"`
	Offset int64  `json:"offset,omitempty"`
	Length int    `json:"length,omitempty"`
}

// Headers of a piece's answer.
const (
	hdrSnapshotCRC   = "Oe-Crc32c"
	hdrSnapshotError = "Oe-Error"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func (n *Node) snapshotSubject(suffix string) string {
	return "oe." + n.opts.Cluster.Name + ".snapshot." + suffix
}

func (n *Node) snapshotNodeSubject(node, op string) string {
	return n.snapshotSubject("node." + node + "." + op)
}

// snapshotServer serves this node's snapshots.
type snapshotServer struct {
	n     *Node
	store *persistence.Store
	dir   string // <dataDir>/snapshots
	sem   chan struct{}

	mu       sync.Mutex
	sessions map[string]*snapshotSession
}

type snapshotSession struct {
	dir   string
	files map[string]int64
	used  time.Time
}

// ServeSnapshots answers the snapshot requests of the cluster's other
// nodes with snapshots of store, while this node is Ready, until it
// closes.
func (n *Node) ServeSnapshots(store *persistence.Store) error {
	s := &snapshotServer{n: n, store: store, dir: filepath.Join(n.opts.DataDir, "snapshots"),
		sem: make(chan struct{}, snapshotInFlight), sessions: map[string]*snapshotSession{}}
	if err := os.RemoveAll(s.dir); err != nil { // a previous run's
		return fmt.Errorf("natsjs: snapshots: %w", err)
	}
	self := n.opts.Cluster.Node
	handlers := map[string]nats.MsgHandler{
		n.snapshotSubject("offer"):           s.offer,
		n.snapshotNodeSubject(self, "open"):  s.open,
		n.snapshotNodeSubject(self, "close"): s.close,
		n.snapshotNodeSubject(self, "chunk"): s.chunkAsync,
	}
	var subs []*nats.Subscription
	for subj, h := range handlers {
		sub, err := n.nc.Subscribe(subj, h)
		if err != nil {
			for _, s := range subs {
				_ = s.Unsubscribe()
			}
			return fmt.Errorf("natsjs: snapshots: subscribe %s: %w", subj, err)
		}
		subs = append(subs, sub)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(snapshotIdle / 4)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				s.dropIdle(time.Now().Add(-snapshotIdle))
			}
		}
	}()
	n.onClose(func() {
		for _, sub := range subs {
			_ = sub.Unsubscribe()
		}
		close(stop)
		<-done
		s.dropIdle(time.Now().Add(time.Hour))
	})
	return nil
}

// offer answers when this node is ready and has room for a snapshot.
func (s *snapshotServer) offer(m *nats.Msg) {
	var req snapshotRequest
	if json.Unmarshal(m.Data, &req) != nil || req.Node == s.n.opts.Cluster.Node || s.n.Ready() != nil {
		return
	}
	s.mu.Lock()
	full := len(s.sessions) >= snapshotSessions
	s.mu.Unlock()
	if full {
		return
	}
	pos, err := s.store.Positions()
	if err != nil {
		return
	}
	restored, err := s.store.RestoredFrom()
	if err != nil {
		return
	}
	data, _ := json.Marshal(snapshotOffer{Node: s.n.opts.Cluster.Node, Positions: pos, Restored: restored})
	_ = m.Respond(data)
}

// open makes a checkpoint of the store and answers its manifest.
func (s *snapshotServer) open(m *nats.Msg) {
	man, err := s.openSession(m.Data)
	if err != nil {
		s.n.log.Warn("natsjs: a snapshot for a peer failed", "err", err)
		respondError(m, err)
		return
	}
	data, _ := json.Marshal(man)
	_ = m.Respond(data)
}

func (s *snapshotServer) openSession(body []byte) (*SnapshotManifest, error) {
	var req snapshotRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("natsjs: snapshot request: %w", err)
	}
	if err := s.n.Ready(); err != nil {
		return nil, fmt.Errorf("natsjs: this node is not ready to serve a snapshot: %w", err)
	}
	s.mu.Lock()
	if len(s.sessions) >= snapshotSessions {
		s.mu.Unlock()
		return nil, errors.New("natsjs: this node serves as many snapshots as it may")
	}
	id := snapshotID()
	sess := &snapshotSession{dir: filepath.Join(s.dir, id), files: map[string]int64{}, used: time.Now()}
	s.sessions[id] = sess
	s.mu.Unlock()
	man, err := s.checkpoint(id, sess, req.Node)
	if err != nil {
		s.drop(id)
		return nil, err
	}
	return man, nil
}

func (s *snapshotServer) checkpoint(id string, sess *snapshotSession, peer string) (*SnapshotManifest, error) {
	start := time.Now()
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, err
	}
	if err := s.store.Checkpoint(sess.dir); err != nil {
		return nil, err
	}
	pos, err := persistence.SnapshotPositions(sess.dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(sess.dir)
	if err != nil {
		return nil, err
	}
	man := &SnapshotManifest{ID: id, Node: s.n.opts.Cluster.Node, Created: time.Now().UTC(), Positions: pos}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		if !info.Mode().IsRegular() || e.Name() == "LOCK" {
			continue
		}
		man.Files = append(man.Files, SnapshotFile{Name: e.Name(), Size: info.Size()})
		sess.files[e.Name()] = info.Size()
	}
	s.n.log.Info("natsjs: serving a snapshot of this node's store", "peer", peer, "id", id,
		"files", len(man.Files), "bytes", man.Bytes(), "took", time.Since(start).Round(time.Millisecond))
	return man, nil
}

// chunkAsync answers a piece request off the subscription's goroutine,
// up to snapshotInFlight at once.
func (s *snapshotServer) chunkAsync(m *nats.Msg) {
	s.sem <- struct{}{}
	go func() {
		defer func() { <-s.sem }()
		s.chunk(m)
	}()
}

func (s *snapshotServer) chunk(m *nats.Msg) {
	var req snapshotRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respondError(m, err)
		return
	}
	s.mu.Lock()
	sess := s.sessions[req.ID]
	var size int64
	var known bool
	if sess != nil {
		sess.used = time.Now()
		size, known = sess.files[req.File]
	}
	s.mu.Unlock()
	switch {
	case sess == nil:
		respondError(m, fmt.Errorf("natsjs: no snapshot %q is served here (it was dropped after %v without a request)", req.ID, snapshotIdle))
		return
	case !known || req.Offset < 0 || req.Length <= 0 || req.Length > snapshotChunk || req.Offset+int64(req.Length) > size:
		respondError(m, fmt.Errorf("natsjs: snapshot %s has no piece %s at %d+%d", req.ID, req.File, req.Offset, req.Length))
		return
	}
	f, err := os.Open(filepath.Join(sess.dir, req.File))
	if err != nil {
		respondError(m, err)
		return
	}
	defer f.Close()
	buf := make([]byte, req.Length)
	if _, err := f.ReadAt(buf, req.Offset); err != nil && !errors.Is(err, io.EOF) {
		respondError(m, err)
		return
	}
	reply := nats.NewMsg(m.Reply)
	reply.Data = buf
	reply.Header.Set(hdrSnapshotCRC, strconv.FormatUint(uint64(crc32.Checksum(buf, castagnoli)), 16))
	_ = m.RespondMsg(reply)
}

func (s *snapshotServer) close(m *nats.Msg) {
	var req snapshotRequest
	if json.Unmarshal(m.Data, &req) == nil {
		s.drop(req.ID)
	}
	_ = m.Respond([]byte("{}"))
}

func (s *snapshotServer) drop(id string) {
	s.mu.Lock()
	sess := s.sessions[id]
	delete(s.sessions, id)
	s.mu.Unlock()
	if sess != nil {
		_ = os.RemoveAll(sess.dir)
	}
}

// dropIdle drops the snapshots last asked for before t.
func (s *snapshotServer) dropIdle(t time.Time) {
	s.mu.Lock()
	var ids []string
	for id, sess := range s.sessions {
		if sess.used.Before(t) {
			ids = append(ids, id)
		}
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.drop(id)
	}
}

func respondError(m *nats.Msg, err error) {
	reply := nats.NewMsg(m.Reply)
	reply.Header.Set(hdrSnapshotError, err.Error())
	_ = m.RespondMsg(reply)
}

func snapshotID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// LocalStore is what Bootstrap knows of the store it decides for.
type LocalStore struct {
	// Dir is the store's folder (a snapshot is received and installed
	// there).
	Dir string
	// Positions are the streams' positions the store applied (none: an
	// empty store).
	Positions map[string]uint64
	// Restored is the id of the backup the store was restored from
	// (persistence.RestoreBackup; "": none).
	Restored string
}

// Bootstrap decides, before this node opens its store for good, whether
// the store can follow the streams: it waits (within ctx) until the
// cluster answers what the compaction removed and which backup it was
// restored from, and when the store is behind the former, not of the
// latter, or empty while the streams hold messages, it receives a ready
// peer's snapshot (of a store of that backup) into the store's folder and
// returns true: the caller closes the store, installs the snapshot
// (persistence.InstallSnapshot) and calls Bootstrap again with the
// installed store. An empty store replays the streams instead when the
// compaction removed nothing from them and no peer offered a snapshot
// within snapshotPreferWait (a new cluster, or every other node down).
func (n *Node) Bootstrap(ctx context.Context, st LocalStore) (fetched bool, err error) {
	local := st.Positions
	start := time.Now()
	var logged time.Time
	waiting := func(msg string, args ...any) {
		if time.Since(logged) >= setupLogEvery {
			n.log.Info(msg, args...)
			logged = time.Now()
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return false, fmt.Errorf("natsjs: bootstrap: %w", err)
		}
		removed, holds, restored, err := n.clusterHistory(ctx)
		if err != nil {
			waiting("natsjs: waiting for a quorum of the cluster's nodes to tell what this store must hold", "err", err)
			sleepCtx(ctx, time.Second)
			continue
		}
		behind := behindOf(local, removed)
		if restored != "" && st.Restored != restored {
			// The cluster was restored from a backup this store was not:
			// it must start from a store that was.
			behind = append(behind, "restored from backup "+restored)
		}
		empty := len(local) == 0
		if len(behind) == 0 && !(empty && holds) {
			return false, nil
		}
		offers := n.snapshotOffers(ctx, removed, restored)
		if len(offers) > 0 {
			o := offers[0]
			n.log.Info("natsjs: this node's store starts from a peer's snapshot", "peer", o.Node,
				"empty", empty, "behind", behind, "peerPositions", o.Positions)
			man, err := n.receiveSnapshot(ctx, st.Dir, o)
			if err == nil {
				n.log.Info("natsjs: snapshot received", "peer", o.Node, "id", man.ID, "bytes", man.Bytes(),
					"took", time.Since(start).Round(time.Millisecond))
				return true, nil
			}
			if ctx.Err() != nil {
				return false, fmt.Errorf("natsjs: bootstrap: %w", ctx.Err())
			}
			n.log.Warn("natsjs: receiving a snapshot failed; asking again", "peer", o.Node, "err", err)
			sleepCtx(ctx, time.Second)
			continue
		}
		if len(behind) == 0 && time.Since(start) >= snapshotPreferWait {
			n.log.Info("natsjs: no peer offers a snapshot; this empty store replays the streams (nothing was removed from them)")
			return false, nil
		}
		if len(behind) > 0 {
			waiting("natsjs: this store is behind what the compaction removed from the streams; waiting for a ready peer to offer a snapshot",
				"behind", behind, "removed", removed)
		} else {
			waiting("natsjs: this store is empty; waiting for a ready peer to offer a snapshot", "replayAfter", snapshotPreferWait)
		}
		sleepCtx(ctx, time.Second)
	}
}

// behindOf returns the streams whose position in local is below what the
// compaction removed of them.
func behindOf(local, removed map[string]uint64) []string {
	var out []string
	for s, r := range removed {
		if r > 0 && local[s] < r {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// clusterHistory returns what the compaction removed from each stream,
// whether the order streams or the shared log hold any message, and the
// backup the cluster was restored from (ClaimRestore), as the cluster
// answers (an error while it cannot: no meta leader, no quorum). A
// cluster without its streams yet (a new one) has removed nothing, holds
// nothing and was not restored.
func (n *Node) clusterHistory(ctx context.Context) (removed map[string]uint64, holds bool, restored string, err error) {
	if !n.srv.JetStreamIsCurrent() {
		return nil, false, "", errors.New("natsjs: no JetStream meta leader yet")
	}
	if err := n.settlePartitions(ctx); err != nil {
		return nil, false, "", err
	}
	names := []string{sharedStream, leaseStream}
	for p := range n.OrderPartitions() {
		names = append(names, orderStream(p))
	}
	leases := false
	for _, name := range names {
		actx, cancel := context.WithTimeout(ctx, apiTimeout)
		s, err := n.js.Stream(actx, name)
		cancel()
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			continue
		}
		if err != nil {
			return nil, false, "", fmt.Errorf("natsjs: stream %s: %w", name, err)
		}
		if name == leaseStream {
			leases = true
		} else if s.CachedInfo().State.LastSeq > 0 {
			holds = true
		}
	}
	if !leases {
		return map[string]uint64{}, holds, "", nil
	}
	if removed, err = n.Horizon(ctx); err != nil {
		return nil, false, "", err
	}
	restored, _, err = n.restoredFrom(ctx)
	return removed, holds, restored, err
}

// restoreMarker is the subject (in LEASES) of the backup a cluster was
// restored from ("" for a cluster that was not).
const restoreMarker = "restored"

type restoreClaim struct {
	ID   string    `json:"id"`
	Node string    `json:"node"`
	At   time.Time `json:"at"`
}

// restoredFrom returns the backup the cluster was restored from ("":
// none) and whether that was recorded (ClaimRestore), as the leases'
// leader answers.
func (n *Node) restoredFrom(ctx context.Context) (id string, recorded bool, err error) {
	m, found, err := n.leaderGet(ctx, leaseStream, leaseSubject(restoreMarker), 0)
	if err != nil || !found {
		return "", false, err
	}
	var c restoreClaim
	if err := json.Unmarshal(m.Data, &c); err != nil {
		return "", false, fmt.Errorf("natsjs: the cluster's restore record: %w", err)
	}
	return c.ID, true, nil
}

// ClaimRestore records, once the streams are set up, which backup this
// cluster was restored from (id: this node's store's,
// persistence.Store.RestoredFrom; "" for a store that was not restored),
// when nothing is recorded yet, and checks this node's store against the
// record. A node whose store was restored from another backup, or from
// none in a restored cluster, or restored in a cluster formed without
// it, is refused with an error saying what to do: so the nodes of a
// cluster never serve from stores of different origins. (An empty node
// of a restored cluster starts from a peer's snapshot: Bootstrap.)
func (n *Node) ClaimRestore(ctx context.Context, id string) error {
	for {
		got, recorded, err := n.restoredFrom(ctx)
		if err != nil {
			return fmt.Errorf("natsjs: read the cluster's restore record: %w", err)
		}
		switch {
		case recorded && got == id:
			return nil
		case recorded && id == "":
			return fmt.Errorf("natsjs: the cluster was restored from backup %s and this node's store was not: "+
				"empty its store (or start it with an empty data folder under a new name) and it starts from a peer's snapshot", got)
		case recorded && got == "":
			return fmt.Errorf("natsjs: this node's store was restored from backup %s, but the cluster was formed without it: "+
				"restore a backup into every new node's data folder before their first start", id)
		case recorded:
			return fmt.Errorf("natsjs: this node's store was restored from backup %s, the cluster from backup %s: "+
				"restore the same backup on every node, or empty this node's store", id, got)
		}
		data, _ := json.Marshal(restoreClaim{ID: id, Node: n.opts.Cluster.Node, At: time.Now().UTC()})
		_, err = n.publishCAS(ctx, leaseStream, leaseSubject(restoreMarker), "restored:"+id+":"+nonce(), 0, data)
		if err == nil {
			if id != "" {
				n.log.Info("natsjs: this cluster is recorded as restored from a backup", "backup", id)
			}
			return nil
		}
		if !errors.Is(err, errCASConflict) {
			return fmt.Errorf("natsjs: record the cluster's restore: %w", err)
		}
	}
}

// snapshotOffers asks the ready peers for snapshots and returns the offers
// whose positions are all past removed and whose store was restored from
// backup restored (when not ""), the furthest ahead first.
func (n *Node) snapshotOffers(ctx context.Context, removed map[string]uint64, restored string) []snapshotOffer {
	body, _ := json.Marshal(snapshotRequest{Node: n.opts.Cluster.Node})
	inbox := nats.NewInbox()
	sub, err := n.nc.SubscribeSync(inbox)
	if err != nil {
		return nil
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := n.nc.PublishRequest(n.snapshotSubject("offer"), inbox, body); err != nil {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, snapshotOfferWait)
	defer cancel()
	var offers []snapshotOffer
	for {
		m, err := sub.NextMsgWithContext(wctx)
		if err != nil {
			break
		}
		if len(offers) == 0 {
			// The ready peers answer at once: after the first, collect
			// the others' for a moment only.
			var stop context.CancelFunc
			wctx, stop = context.WithTimeout(wctx, snapshotOfferMore)
			defer stop()
		}
		var o snapshotOffer
		if json.Unmarshal(m.Data, &o) != nil || len(behindOf(o.Positions, removed)) > 0 || restored != "" && o.Restored != restored {
			continue
		}
		offers = append(offers, o)
	}
	total := func(o snapshotOffer) (t uint64) {
		for _, v := range o.Positions {
			t += v
		}
		return t
	}
	slices.SortFunc(offers, func(a, b snapshotOffer) int { return cmp.Compare(total(b), total(a)) })
	return offers
}

// receiveSnapshot receives peer o's snapshot into the incoming folder of
// storeDir and marks it whole.
func (n *Node) receiveSnapshot(ctx context.Context, storeDir string, o snapshotOffer) (*SnapshotManifest, error) {
	// Hold the compaction at the peer's positions while receiving: the
	// snapshot holds at least them.
	hctx, stopHold := context.WithCancel(ctx)
	defer stopHold()
	go n.holdPositions(hctx, o.Positions)

	man, err := n.openSnapshot(ctx, o.Node)
	if err != nil {
		return nil, err
	}
	defer func() {
		body, _ := json.Marshal(snapshotRequest{Node: n.opts.Cluster.Node, ID: man.ID})
		_, _ = n.nc.Request(n.snapshotNodeSubject(o.Node, "close"), body, apiTimeout)
	}()
	in := filepath.Join(storeDir, persistence.SnapshotIncoming)
	if err := os.RemoveAll(in); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(in, 0o700); err != nil {
		return nil, err
	}
	if err := n.receiveFiles(ctx, o.Node, man, in); err != nil {
		return nil, err
	}
	data, err := json.Marshal(man)
	if err != nil {
		return nil, err
	}
	if err := persistence.SnapshotReceived(storeDir, data); err != nil {
		return nil, err
	}
	return man, nil
}

// holdPositions reports pos as this node's applied positions, for
// snapshotHoldTTL and again every quarter of it, until ctx ends.
func (n *Node) holdPositions(ctx context.Context, pos map[string]uint64) {
	for {
		if err := n.publishPositions(ctx, pos, snapshotHoldTTL); err != nil && ctx.Err() == nil {
			n.log.Warn("natsjs: reporting the snapshot's positions failed (the compaction may move past them; the store is checked again once installed)", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(snapshotHoldTTL / 4):
		}
	}
}

func (n *Node) openSnapshot(ctx context.Context, peer string) (*SnapshotManifest, error) {
	body, _ := json.Marshal(snapshotRequest{Node: n.opts.Cluster.Node})
	rctx, cancel := context.WithTimeout(ctx, snapshotRequestTimeout)
	defer cancel()
	resp, err := n.nc.RequestWithContext(rctx, n.snapshotNodeSubject(peer, "open"), body)
	if err != nil {
		return nil, fmt.Errorf("natsjs: ask %s for a snapshot: %w", peer, err)
	}
	if e := resp.Header.Get(hdrSnapshotError); e != "" {
		return nil, fmt.Errorf("natsjs: %s: %s", peer, e)
	}
	var man SnapshotManifest
	if err := json.Unmarshal(resp.Data, &man); err != nil {
		return nil, fmt.Errorf("natsjs: %s's snapshot manifest: %w", peer, err)
	}
	for _, f := range man.Files {
		if f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." || f.Size < 0 {
			return nil, fmt.Errorf("natsjs: %s's snapshot names a file %q", peer, f.Name)
		}
	}
	return &man, nil
}

// receiveFiles receives every file of man into dir, up to
// snapshotInFlight pieces at once, each checked against its CRC, then
// syncs them.
func (n *Node) receiveFiles(ctx context.Context, peer string, man *SnapshotManifest, dir string) error {
	type piece struct {
		f      *os.File
		name   string
		offset int64
		length int
	}
	files := make([]*os.File, 0, len(man.Files))
	defer func() {
		for _, f := range files {
			_ = f.Close()
		}
	}()
	var pieces []piece
	for _, sf := range man.Files {
		f, err := os.OpenFile(filepath.Join(dir, sf.Name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		files = append(files, f)
		for off := int64(0); off < sf.Size; off += snapshotChunk {
			pieces = append(pieces, piece{f: f, name: sf.Name, offset: off, length: int(min(snapshotChunk, sf.Size-off))})
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		received atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	total := man.Bytes()
	start := time.Now()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(snapshotLogEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				got := received.Load()
				n.log.Info("natsjs: receiving a snapshot", "peer", peer, "bytes", got, "of", total,
					"perSecond", int64(float64(got)/time.Since(start).Seconds()))
			}
		}
	}()
	for range snapshotInFlight {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(pieces) || ctx.Err() != nil {
					return
				}
				p := pieces[i]
				data, err := n.snapshotPiece(ctx, peer, snapshotRequest{Node: n.opts.Cluster.Node, ID: man.ID, File: p.name, Offset: p.offset, Length: p.length})
				if err == nil {
					_, err = p.f.WriteAt(data, p.offset)
				}
				if err != nil {
					fail(err)
					return
				}
				received.Add(int64(len(data)))
			}
		})
	}
	wg.Wait()
	close(done)
	if firstErr != nil {
		return firstErr
	}
	for _, f := range files {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	return nil
}

// snapshotPiece asks for one piece, up to three times.
func (n *Node) snapshotPiece(ctx context.Context, peer string, req snapshotRequest) ([]byte, error) {
	body, _ := json.Marshal(req)
	var last error
	for range 3 {
		rctx, cancel := context.WithTimeout(ctx, snapshotRequestTimeout)
		resp, err := n.nc.RequestWithContext(rctx, n.snapshotNodeSubject(peer, "chunk"), body)
		cancel()
		if err != nil {
			last = err
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if e := resp.Header.Get(hdrSnapshotError); e != "" {
			return nil, fmt.Errorf("natsjs: %s: %s", peer, e)
		}
		want, err := strconv.ParseUint(resp.Header.Get(hdrSnapshotCRC), 16, 32)
		if err != nil || len(resp.Data) != req.Length || uint32(want) != crc32.Checksum(resp.Data, castagnoli) {
			last = fmt.Errorf("natsjs: %s's piece %s at %d arrived damaged (%d bytes of %d)", peer, req.File, req.Offset, len(resp.Data), req.Length)
			continue
		}
		return resp.Data, nil
	}
	return nil, last
}

// sleepCtx sleeps d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
