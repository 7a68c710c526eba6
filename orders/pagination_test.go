package orders_test

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/persistence/chainstore"
)

// walk pages through path (a query string without limit and cursor) with
// limit and returns the hashes in page order. It fails when a page other
// than the last is short, or when a cursor is served on the last page.
func (e *env) walk(path string, limit int) []string {
	e.t.Helper()
	return e.walkFrom(path, limit, "")
}

// walkFrom is walk starting after cursor ("" = from the start).
func (e *env) walkFrom(path string, limit int, cursor string) []string {
	e.t.Helper()
	var out []string
	for pages := 0; ; pages++ {
		q := path + "limit=" + strconv.Itoa(limit)
		if cursor != "" {
			q += "&cursor=" + cursor
		}
		r := e.srv.Get(q)
		if r.Status != 200 {
			e.t.Fatalf("GET %s: %d %s", q, r.Status, r.Body)
		}
		var p struct {
			Orders []struct {
				OrderHash string `json:"orderHash"`
			} `json:"orders"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.Body, &p); err != nil {
			e.t.Fatal(err)
		}
		for _, o := range p.Orders {
			out = append(out, o.OrderHash)
		}
		if p.NextCursor == nil {
			return out
		}
		if len(p.Orders) != limit {
			e.t.Fatalf("GET %s: a page of %d orders (limit %d) has a nextCursor", q, len(p.Orders), limit)
		}
		if pages > 10000 {
			e.t.Fatal("pagination does not end")
		}
		cursor = *p.NextCursor
	}
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%s: got %d orders %v\nwant %d %v", what, len(got), got, len(want), want)
	}
}

// listed is an order of TestListWalksEveryOrderOnce as the test expects
// the list to show it.
type listed struct {
	hash          string
	created       time.Time
	maker, status string
	orderType     string
}

// TestListWalksEveryOrderOnce checks GET /v1/orders against a model: every
// filter combination, walked with several page sizes (1, a size that
// divides the count, 500, the default 100), lists every matching order
// exactly once, newest first, with no nextCursor on the last page.
func TestListWalksEveryOrderOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	reg := e.svc().Registry()
	keys := []*ecdsa.PrivateKey{newKey(t), newKey(t), newKey(t)}
	classes := []string{"limit", "stop_loss", "take_profit", "dca", "trailing"}
	var all []listed
	for i := range 120 {
		k := keys[i%3]
		sp := defaultSpec(classes[i%5], k)
		h := e.submit(sp)
		all = append(all, listed{hash: h.Hex(), created: e.clk.Now(), maker: crypto.PubkeyToAddress(k.PublicKey).Hex(),
			status: "pending", orderType: classes[i%5]})
		// Ties in createdAt every fourth order, then time moves on (and
		// the per-maker submit window with it).
		if i%4 != 3 {
			continue
		}
		e.clk.Advance(4 * time.Second)
	}
	now := e.clk.Now()
	for i := range all {
		h := common.HexToHash(all[i].hash)
		var err error
		switch i % 7 {
		case 1:
			_, err = e.chainActivate(h, now)
			all[i].status = "active"
		case 2:
			_, err = reg.Expire(ctx, h, chainstore.View{}, now)
			all[i].status = "expired"
		case 3:
			_, err = reg.Fail(ctx, h, "no route", "NoRoute", now)
			all[i].status = "failed"
		case 4:
			if r := e.cancel(h, keys[i%3]); r.Status != 200 {
				t.Fatalf("cancel: %d %s", r.Status, r.Body)
			}
			all[i].status = "cancelled"
		case 5:
			_, err = e.chainFillOf(h, testFill(uint64(i), 0, "1000000000000000000", "1", "1000000000000000000", 1, now))
			all[i].status = "filled"
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// The model's order: newest first; within one createdAt, every order
	// once (the walk with limit 1 crosses each tie).
	expect := func(maker, status, typ string) []string {
		var out []string
		for i := len(all) - 1; i >= 0; i-- {
			o := all[i]
			if (maker == "" || o.maker == maker) && (status == "" || o.status == status) && (typ == "" || o.orderType == typ) {
				out = append(out, o.hash)
			}
		}
		return out
	}
	ordered := func(what string, got, want []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d orders, want %d", what, len(got), len(want))
		}
		created := map[string]time.Time{}
		for _, o := range all {
			created[o.hash] = o.created
		}
		seen := map[string]bool{}
		for i, h := range got {
			if seen[h] {
				t.Fatalf("%s: %s listed twice", what, h)
			}
			seen[h] = true
			if i > 0 && created[h].After(created[got[i-1]]) {
				t.Fatalf("%s: position %d is newer than position %d", what, i, i-1)
			}
		}
		for _, h := range want {
			if !seen[h] {
				t.Fatalf("%s: %s missing", what, h)
			}
		}
	}
	wallet := all[0].maker
	for _, f := range []struct{ maker, status, typ string }{
		{}, {maker: wallet}, {status: "pending"}, {status: "cancelled"}, {typ: "dca"},
		{maker: wallet, status: "pending"}, {maker: wallet, typ: "limit"}, {status: "active", typ: "stop_loss"},
		{maker: wallet, status: "filled", typ: "take_profit"}, {maker: wallet, status: "failed", typ: "trailing"},
	} {
		q := "/v1/orders?"
		if f.maker != "" {
			q += "wallet=" + strings.ToLower(f.maker) + "&"
		}
		if f.status != "" {
			q += "status=" + f.status + "&"
		}
		if f.typ != "" {
			q += "orderType=" + f.typ + "&"
		}
		want := expect(f.maker, f.status, f.typ)
		one := e.walk(q, 1)
		ordered(q+" limit 1", one, want)
		for _, limit := range []int{3, 500} {
			sameList(t, q+" limit "+strconv.Itoa(limit), e.walk(q, limit), one)
		}
		if len(want) > 1 && len(want)%2 == 0 {
			sameList(t, q+" exact pages", e.walk(q, len(want)/2), one)
		}
	}
	// No limit: pages of 100.
	r := e.srv.Get("/v1/orders")
	var p struct {
		Orders     []json.RawMessage `json:"orders"`
		NextCursor *string           `json:"nextCursor"`
	}
	if err := json.Unmarshal(r.Body, &p); err != nil || len(p.Orders) != 100 || p.NextCursor == nil {
		t.Fatalf("default page: %d orders, next %v (%v)", len(p.Orders), p.NextCursor, err)
	}
	r = e.srv.Get("/v1/orders?cursor=" + *p.NextCursor)
	if err := json.Unmarshal(r.Body, &p); err != nil || len(p.Orders) != 20 || p.NextCursor != nil {
		t.Fatalf("second default page: %d orders, next %v (%v)", len(p.Orders), p.NextCursor, err)
	}
	e.consistent()
}

// Keyset pagination is stable while the list changes: orders submitted
// after the first page never show on later pages, the order at the cursor
// may leave the filtered list, and nothing is skipped or repeated.
func TestListPaginationWhileOrdersChange(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	var hashes []common.Hash
	for i := range 9 {
		sp := defaultSpec("limit", newKey(t))
		sp.price += uint64(i)
		hashes = append(hashes, e.submit(sp))
		e.clk.Advance(time.Second)
	}
	page := func(q string) ([]string, string) {
		r := e.srv.Get(q)
		var p struct {
			Orders []struct {
				OrderHash string `json:"orderHash"`
			} `json:"orders"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.Body, &p); err != nil || r.Status != 200 {
			t.Fatalf("%s: %d %s", q, r.Status, r.Body)
		}
		var out []string
		for _, o := range p.Orders {
			out = append(out, o.OrderHash)
		}
		if p.NextCursor == nil {
			return out, ""
		}
		return out, *p.NextCursor
	}
	first, cursor := page("/v1/orders?status=pending&limit=3")
	sameList(t, "first page", first, []string{hashes[8].Hex(), hashes[7].Hex(), hashes[6].Hex()})
	// A newer order arrives, the order at the cursor is cancelled (it
	// leaves status=pending) and one on the next page is too.
	e.submit(defaultSpec("limit", key))
	for _, h := range []common.Hash{hashes[6], hashes[4]} {
		if _, err := e.chainCancel(h, hashOf("ee"), e.clk.Now()); err != nil {
			t.Fatal(err)
		}
	}
	second, cursor := page("/v1/orders?status=pending&limit=3&cursor=" + cursor)
	sameList(t, "second page", second, []string{hashes[5].Hex(), hashes[3].Hex(), hashes[2].Hex()})
	third, cursor := page("/v1/orders?status=pending&limit=3&cursor=" + cursor)
	sameList(t, "last page", third, []string{hashes[1].Hex(), hashes[0].Hex()})
	if cursor != "" {
		t.Fatalf("last page has a cursor %s", cursor)
	}
}

// bookKey is an open order as the orderbook orders it.
type bookKey struct {
	price uint64
	hash  common.Hash
}

func sortBook(keys []bookKey) []string {
	slices.SortFunc(keys, func(a, b bookKey) int {
		if a.price != b.price {
			return cmp.Compare(a.price, b.price)
		}
		return bytes.Compare(a.hash[:], b.hash[:])
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.hash.Hex()
	}
	return out
}

// TestOrderbookWalksEveryOrderOnce checks GET /v1/orderbook/{pair}
// against a model: the pair's pending and active orders (no closed ones,
// no other pair's), by ascending trigger price then hash, each exactly
// once whatever the page size, no nextCursor on the last page; a cancel
// shows at once; and a walk stays complete while the book changes.
func TestOrderbookWalksEveryOrderOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	reg := e.svc().Registry()
	now := e.clk.Now()
	classes := []string{"limit", "stop_loss", "take_profit", "dca", "trailing"}
	var open []bookKey
	for i := range 160 {
		sp := defaultSpec(classes[i%5], newKey(t))
		if sp.price != 0 {
			sp.price += uint64(i%4) * 1000 // ties: many orders share a price
		}
		h := e.submit(sp)
		switch i % 6 {
		case 1:
			if _, err := e.chainActivate(h, now); err != nil {
				t.Fatal(err)
			}
		case 2:
			if _, err := reg.Expire(ctx, h, chainstore.View{}, now); err != nil {
				t.Fatal(err)
			}
			continue
		case 3:
			if _, err := reg.Fail(ctx, h, "no route", "", now); err != nil {
				t.Fatal(err)
			}
			continue
		}
		open = append(open, bookKey{sp.price, h})
	}
	other := defaultSpec("limit", newKey(t))
	other.in, other.out = tokB, tokA
	e.submit(other)
	pair := tokA.Hex() + "-" + tokB.Hex()
	want := sortBook(open)
	path := "/v1/orderbook/" + pair + "?"
	for _, limit := range []int{1, 7, len(want) / 2, 500} {
		sameList(t, "orderbook limit "+strconv.Itoa(limit), e.walk(path, limit), want)
	}
	sameList(t, "lowercase pair", e.walk("/v1/orderbook/"+strings.ToLower(pair)+"?", 9), want)
	// No limit: pages of 100.
	r := e.srv.Get("/v1/orderbook/" + pair)
	var p struct {
		Orders []struct {
			OrderHash, Status, TriggerPrice string
		} `json:"orders"`
		NextCursor *string `json:"nextCursor"`
	}
	if err := json.Unmarshal(r.Body, &p); err != nil || len(p.Orders) != 100 || p.NextCursor == nil {
		t.Fatalf("default page: %d orders, next %v (%v)", len(p.Orders), p.NextCursor, err)
	}
	for _, o := range p.Orders {
		if o.Status != "pending" && o.Status != "active" {
			t.Fatalf("a %s order in the book", o.Status)
		}
	}
	// A cancelled order is gone from the next read (the book hears of the
	// change before the cancel answers).
	key := newKey(t)
	sp := defaultSpec("limit", key)
	hc := e.submit(sp)
	if !slices.Contains(e.walk(path, 500), hc.Hex()) {
		t.Fatal("a new order is not in the book at once")
	}
	if r := e.cancel(hc, key); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	sameList(t, "after the cancel", e.walk(path, 500), want)
	// Changes between pages: the order at the cursor and one on the next
	// page close, an order priced above the cursor arrives (it is listed),
	// one priced below does not show. The first page ends among the
	// priced orders (dca and trailing orders have trigger price 0).
	first := 5
	for _, k := range open {
		if k.price == 0 {
			first++
		}
	}
	r = e.srv.Get(path + "limit=" + strconv.Itoa(first))
	if err := json.Unmarshal(r.Body, &p); err != nil || p.NextCursor == nil {
		t.Fatalf("first page: %s", r.Body)
	}
	at, next := common.HexToHash(want[first-1]), common.HexToHash(want[first+2])
	for _, h := range []common.Hash{at, next} {
		if _, err := reg.Expire(ctx, h, chainstore.View{}, now); err != nil {
			t.Fatal(err)
		}
	}
	high := defaultSpec("limit", newKey(t))
	high.price = 9_000_000_000
	hh := e.submit(high)
	low := defaultSpec("limit", newKey(t))
	low.price = 1
	e.submit(low)
	rest := e.walkFrom(path, 10, *p.NextCursor)
	var wantRest []string
	for _, h := range want[first:] {
		if h != next.Hex() {
			wantRest = append(wantRest, h)
		}
	}
	wantRest = append(wantRest, hh.Hex())
	sameList(t, "pages after a changing cursor", rest, wantRest)
}
