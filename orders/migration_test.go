package orders_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// A data folder written by the schema-2 engine (order records stored as
// the API's JSON) opens migrated, and the API answers every order with the
// very bytes that engine answered: the migration and the renderer change
// nothing users see. The records are persistence/orderstore/testdata's
// fixtures, one of each shape, written with that engine's encoder.
func TestSchema2OrdersReadTheSameAfterMigration(t *testing.T) {
	dir := t.TempDir()
	fixtures := persistencetest.Lines(t, filepath.Join("..", "persistence", "orderstore", "testdata", "orders_schema2.jsonl"))
	writeSchema2Store(t, dir, fixtures)
	e := newEnv(t, apptest.WithDataDir(dir))
	for _, want := range fixtures {
		var head struct {
			OrderHash string `json:"orderHash"`
			Status    string `json:"status"`
			OrderType string `json:"orderType"`
			AccountID string `json:"accountId"`
		}
		if err := json.Unmarshal(want, &head); err != nil {
			t.Fatal(err)
		}
		// The fixtures' account is not this server's: its key reads the
		// order without accountId (shown only to the submitting account),
		// and the record keeps it.
		rec, ok, err := e.srv.System.Orders.Load(common.HexToHash(head.OrderHash))
		if err != nil || !ok || rec.AccountID != head.AccountID || head.AccountID == "" {
			t.Fatalf("migrated record of %s: %v %v, account %q want %q", head.OrderHash, ok, err, rec.AccountID, head.AccountID)
		}
		want = bytes.Replace(want, []byte(`,"accountId":"`+head.AccountID+`"`), nil, 1)
		r := e.srv.Get("/v1/orders/" + head.OrderHash)
		if r.Status != 200 || !bytes.Equal(r.Body, want) {
			t.Fatalf("GET %s after the migration:\n got %d %s\nwant     %s", head.OrderHash, r.Status, r.Body, want)
		}
		list := e.srv.Get("/v1/orders?status=" + head.Status + "&orderType=" + head.OrderType)
		if list.Status != 200 || !bytes.Contains(list.Body, want) {
			t.Fatalf("list of %s %s does not hold the order as it was: %s", head.Status, head.OrderType, list.Body)
		}
	}
	e.consistent()
}

// writeSchema2Store writes the fixtures into a fresh Pebble folder laid
// out as schema 2 did (persistence/keys.go and orders.go document the
// layout): m/schema = 2, o/<hash> = the JSON record, and the four list
// index keys of its status.
func writeSchema2Store(t *testing.T, dir string, fixtures [][]byte) {
	t.Helper()
	db, err := pebble.Open(dir, &pebble.Options{FormatMajorVersion: pebble.FormatValueSeparation})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	statuses := map[string]byte{"pending": 1, "active": 2, "filled": 3, "cancelled": 4, "expired": 5, "failed": 6}
	types := map[string]byte{"limit": 1, "stop_loss": 2, "take_profit": 3, "dca": 4, "trailing": 5}
	b := db.NewBatch()
	for _, v := range fixtures {
		var rec struct {
			OrderHash string `json:"orderHash"`
			OrderType string `json:"orderType"`
			Status    string `json:"status"`
			Order     struct {
				Maker string `json:"maker"`
			} `json:"order"`
			CreatedAt time.Time `json:"createdAt"`
		}
		if err := json.Unmarshal(v, &rec); err != nil {
			t.Fatal(err)
		}
		h, maker := common.HexToHash(rec.OrderHash), common.HexToAddress(rec.Order.Maker)
		_ = b.Set(append([]byte("o/"), h[:]...), v, nil)
		suffix := binary.BigEndian.AppendUint64(nil, ^uint64(rec.CreatedAt.UnixNano()))
		suffix = append(suffix, h[:]...)
		for _, mask := range []byte{2, 3, 6, 7} { // status, +maker, +type, +maker+type
			k := append([]byte("i/"), mask)
			if mask&1 != 0 {
				k = append(k, maker[:]...)
			}
			k = append(k, statuses[rec.Status])
			if mask&4 != 0 {
				k = append(k, types[rec.OrderType])
			}
			_ = b.Set(append(k, suffix...), nil, nil)
		}
	}
	_ = b.Set([]byte("m/schema"), binary.BigEndian.AppendUint32(nil, 2), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
}
