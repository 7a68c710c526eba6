package natsjs

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine"
)

// A backup is a logical dump of the cluster's streams (docs/cluster.md,
// "Backups"): a gzip stream of JSON lines. The first line is a
// BackupHeader; then every message of every stream, one BackupMessage per
// line, stream after stream in the header's order and each in sequence
// order, up to the stream's last sequence when the backup started; the last
// line is a BackupEnd holding the count of message lines and the SHA-256 of
// every byte before it (the uncompressed lines with their newlines). A file
// without that last line, or whose digest differs, is refused whole.
const (
	// BackupFormat names the format in a backup's header.
	BackupFormat = "orderengine-cluster-backup"
	// BackupVersion is the version of the format this engine writes and
	// reads.
	BackupVersion = 1
	// maxBackupLine bounds one line of a backup (a message is at most the
	// NATS payload limit, 1 MiB by default, base64 in JSON).
	maxBackupLine = 16 << 20
)

// BackupHeader is the first line of a backup.
type BackupHeader struct {
	Format          string         `json:"format"`
	Version         int            `json:"version"`
	Cluster         string         `json:"cluster"`
	Node            string         `json:"node"`
	OrderPartitions int            `json:"orderPartitions"`
	Created         time.Time      `json:"created"`
	Streams         []BackupStream `json:"streams"`
}

// BackupStream is one stream of a backup: the sequences it held when the
// backup started.
type BackupStream struct {
	Name     string `json:"name"`
	FirstSeq uint64 `json:"firstSeq"`
	LastSeq  uint64 `json:"lastSeq"`
}

// BackupMessage is one stored message: its stream, its sequence there, its
// subject, its headers (the message id among them) and its bytes.
type BackupMessage struct {
	Stream  string      `json:"stream"`
	Seq     uint64      `json:"seq"`
	Subject string      `json:"subject"`
	Header  nats.Header `json:"header,omitempty"`
	Data    []byte      `json:"data"`
}

// BackupEnd is the last line of a backup.
type BackupEnd struct {
	End      bool   `json:"end"`
	Messages uint64 `json:"messages"`
	SHA256   string `json:"sha256"`
}

// backedUp reports whether stream name is part of a backup: every stream
// of the engine's account except the leases, which belong to the running
// cluster (a holder's term), not to its data.
func backedUp(name string) bool { return name != leaseStream }

// Backup writes a backup of every stream the node's JetStream account
// holds (but the leases) to w. The streams are read one after another,
// each up to the last sequence it had when the backup started. Once the
// compaction removed anything from the streams they no longer hold the
// whole history, and the dump is refused (INVALID_REQUEST): a store
// backup holds it (persistence.Backup, GET /admin/v1/backup).
func (n *Node) Backup(ctx context.Context, w io.Writer) error {
	removed, err := n.Horizon(ctx)
	if err != nil {
		return fmt.Errorf("natsjs: backup: %w", err)
	}
	for stream, seq := range removed {
		if seq > 0 {
			return orderengine.Errorf(orderengine.CodeInvalidRequest,
				"the streams no longer hold the whole history (the compaction removed %s up to %d): take a store backup instead (GET /admin/v1/backup, orderengine admin backup)", stream, seq)
		}
	}
	h := BackupHeader{Format: BackupFormat, Version: BackupVersion, Cluster: n.opts.Cluster.Name, Node: n.opts.Cluster.Node,
		OrderPartitions: n.OrderPartitions(), Created: time.Now().UTC()}
	names := n.js.StreamNames(ctx)
	var all []string
	for name := range names.Name() {
		if backedUp(name) {
			all = append(all, name)
		}
	}
	if err := names.Err(); err != nil {
		return fmt.Errorf("natsjs: backup: list the streams: %w", err)
	}
	slices.Sort(all)
	handles := make(map[string]jetstream.Stream, len(all))
	for _, name := range all {
		s, err := n.js.Stream(ctx, name)
		if err != nil {
			return fmt.Errorf("natsjs: backup: stream %s: %w", name, err)
		}
		st := s.CachedInfo().State
		handles[name] = s
		h.Streams = append(h.Streams, BackupStream{Name: name, FirstSeq: st.FirstSeq, LastSeq: st.LastSeq})
	}
	zw := gzip.NewWriter(w)
	bw := &backupWriter{w: bufio.NewWriterSize(zw, 1<<16), sum: sha256.New()}
	if err := bw.line(h); err != nil {
		return err
	}
	for _, bs := range h.Streams {
		if err := n.dumpStream(ctx, handles[bs.Name], bs, bw); err != nil {
			return fmt.Errorf("natsjs: backup: stream %s: %w", bs.Name, err)
		}
	}
	end := BackupEnd{End: true, Messages: bw.messages, SHA256: hex.EncodeToString(bw.sum.Sum(nil))}
	if err := bw.line(end); err != nil {
		return err
	}
	if err := bw.w.Flush(); err != nil {
		return fmt.Errorf("natsjs: backup: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("natsjs: backup: %w", err)
	}
	return nil
}

// backupWriter writes JSON lines, hashing each.
type backupWriter struct {
	w        *bufio.Writer
	sum      hash.Hash
	messages uint64
}

func (b *backupWriter) line(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("natsjs: backup: %w", err)
	}
	data = append(data, '\n')
	b.sum.Write(data)
	if _, err := b.w.Write(data); err != nil {
		return fmt.Errorf("natsjs: backup: %w", err)
	}
	return nil
}

// dumpStream writes the messages of s from bs.FirstSeq to bs.LastSeq
// through ordered consumers (leader-driven, in sequence order). A failed
// read (a leader moving, no responder for a moment) is retried from the
// next sequence with a new consumer, for up to dumpRetry in a row.
func (n *Node) dumpStream(ctx context.Context, s jetstream.Stream, bs BackupStream, bw *backupWriter) error {
	if bs.LastSeq == 0 || bs.LastSeq < bs.FirstSeq {
		return nil
	}
	next := bs.FirstSeq
	failing := time.Time{}
	for backoff := firstBackoff; next <= bs.LastSeq; backoff = min(2*backoff, maxBackoff) {
		err := n.dumpFrom(ctx, s, bs, &next, bw)
		if err == nil {
			return nil
		}
		if failing.IsZero() {
			failing = time.Now()
		}
		if retry, _ := classify(err); !retry || time.Since(failing) > dumpRetry || ctx.Err() != nil {
			return err
		}
		n.log.Info("natsjs: backup: reading a stream failed; retrying", "stream", bs.Name, "from", next, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
	return nil
}

// dumpRetry bounds a stream read's consecutive failures in a backup.
const dumpRetry = 30 * time.Second

// dumpFrom writes the messages of s from *next to bs.LastSeq, advancing
// *next past each one written.
func (n *Node) dumpFrom(ctx context.Context, s jetstream.Stream, bs BackupStream, next *uint64, bw *backupWriter) error {
	c, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: *next})
	if err != nil {
		return err
	}
	for *next <= bs.LastSeq {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch, err := c.Fetch(min(1000, int(bs.LastSeq-*next+1)), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			return err
		}
		got := 0
		for m := range batch.Messages() {
			meta, err := m.Metadata()
			if err != nil {
				return err
			}
			seq := meta.Sequence.Stream
			if seq > bs.LastSeq {
				break
			}
			got++
			if err := bw.line(BackupMessage{Stream: bs.Name, Seq: seq, Subject: m.Subject(), Header: m.Headers(), Data: m.Data()}); err != nil {
				return err
			}
			bw.messages++
			*next = seq + 1
		}
		if err := batch.Error(); err != nil {
			return err
		}
		if got == 0 {
			return fmt.Errorf("natsjs: no message after sequence %d within 5 s (the backup reads up to %d)", *next-1, bs.LastSeq)
		}
	}
	return nil
}

// backupReader reads a backup's lines, hashing each.
type backupReader struct {
	r     *bufio.Reader
	sum   hash.Hash
	lines int
}

func newBackupReader(r io.Reader) (*backupReader, func(), error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, nil, badBackup("not a gzip stream: %v", err)
	}
	return &backupReader{r: bufio.NewReaderSize(zr, 1<<16), sum: sha256.New()}, func() { _ = zr.Close() }, nil
}

// next returns the next line (without hashing it: see hash), io.EOF at the
// end.
func (b *backupReader) next() ([]byte, error) {
	var line []byte
	for {
		part, err := b.r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxBackupLine {
			return nil, badBackup("line %d is longer than %d bytes", b.lines+1, maxBackupLine)
		}
		switch {
		case err == nil:
			b.lines++
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			return nil, badBackup("line %d is cut short (the file is truncated)", b.lines+1)
		default:
			return nil, badBackup("line %d: %v (the file is truncated or corrupted)", b.lines+1, err)
		}
	}
}

// badBackup is the error of a backup file that cannot be restored.
func badBackup(format string, args ...any) error {
	return orderengine.Errorf(orderengine.CodeInvalidRequest, "backup file refused: "+format, args...)
}

// ReadBackup reads a whole backup from r and checks it: the header's
// format and version, every line's shape, every stream's sequences in
// increasing order within the header's range, the count of messages and
// the digest of the last line. each (nil: none) is called with every
// message in file order; it runs before the digest is checked, so a caller
// that acts on the messages reads the file twice (Restore does). It
// returns the header, or an INVALID_REQUEST error naming the first fault.
func ReadBackup(r io.Reader, each func(*BackupMessage) error) (*BackupHeader, error) {
	br, closeFn, err := newBackupReader(r)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	line, err := br.next()
	if errors.Is(err, io.EOF) {
		return nil, badBackup("the file is empty")
	}
	if err != nil {
		return nil, err
	}
	var h BackupHeader
	if json.Unmarshal(line, &h) != nil || h.Format != BackupFormat {
		return nil, badBackup("the first line is not an %s header", BackupFormat)
	}
	if h.Version != BackupVersion {
		return nil, badBackup("format version %d; this engine reads version %d", h.Version, BackupVersion)
	}
	br.sum.Write(line)
	last := make(map[string]uint64, len(h.Streams))
	bounds := make(map[string]BackupStream, len(h.Streams))
	for _, s := range h.Streams {
		bounds[s.Name] = s
	}
	var count uint64
	for {
		line, err := br.next()
		if errors.Is(err, io.EOF) {
			return nil, badBackup("no end line after %d lines (the file is truncated)", br.lines)
		}
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(string(line), `{"end":`) {
			var end BackupEnd
			if json.Unmarshal(line, &end) != nil || !end.End {
				return nil, badBackup("line %d: a malformed end line", br.lines)
			}
			if got := hex.EncodeToString(br.sum.Sum(nil)); end.SHA256 != got || end.Messages != count {
				return nil, badBackup("the checksum or the message count differs from the end line (the file is corrupted)")
			}
			if _, err := br.next(); !errors.Is(err, io.EOF) {
				return nil, badBackup("data after the end line")
			}
			return &h, nil
		}
		br.sum.Write(line)
		var m BackupMessage
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, badBackup("line %d is not a message: %v", br.lines, err)
		}
		b, ok := bounds[m.Stream]
		if !ok || m.Seq <= last[m.Stream] || m.Seq < b.FirstSeq || m.Seq > b.LastSeq || m.Subject == "" {
			return nil, badBackup("line %d: message %s/%d is out of order or outside the header's streams", br.lines, m.Stream, m.Seq)
		}
		last[m.Stream] = m.Seq
		count++
		if each != nil {
			if err := each(&m); err != nil {
				return nil, err
			}
		}
	}
}
