package orders_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestCancelPaths(t *testing.T) {
	e := newEnv(t)
	hook := e.receiver()
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key))
	if r := e.cancel(h, newKey(t)); r.Status != 400 || r.Code() != "BAD_SIGNATURE" {
		t.Fatalf("wrong signer: %d %s", r.Status, r.Body)
	}
	if r := e.cancel(h, key); r.Status != 200 || !strings.Contains(string(r.Body), `"success":true`) {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	if rec := e.get(h); rec["status"] != "cancelled" {
		t.Fatalf("status %v", rec["status"])
	}
	if r := e.cancel(h, key); r.Status != 409 || r.Code() != "NOT_CANCELLABLE" {
		t.Fatalf("cancel of a cancelled order: %d %s, want 409 NOT_CANCELLABLE", r.Status, r.Body)
	}
	if r := e.cancel(common.HexToHash("0x1234"), key); r.Status != 404 || r.Code() != "NOT_FOUND" {
		t.Fatalf("unknown: %d %s", r.Status, r.Body)
	}
	// The off-chain cancel produced one order.cancelled event for the
	// submitting account (written in the same batch as the transition).
	waitFor(t, func() bool { return hook.has("order.cancelled", h) })
	// Active orders are not cancellable off-chain.
	h2 := e.submit(defaultSpec("stop_loss", key))
	if _, err := e.chainActivate(h2, e.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if r := e.cancel(h2, key); r.Status != 409 || r.Code() != "NOT_CANCELLABLE" {
		t.Fatalf("active: %d %s", r.Status, r.Body)
	}
	e.consistent()
}

type listPage struct {
	Orders []struct {
		OrderHash string `json:"orderHash"`
		Status    string `json:"status"`
		OrderType string `json:"orderType"`
	} `json:"orders"`
	NextCursor *string `json:"nextCursor"`
}

func (e *env) list(query string) listPage {
	e.t.Helper()
	r := e.srv.Get("/v1/orders?" + query)
	if r.Status != 200 {
		e.t.Fatalf("list %s: %d %s", query, r.Status, r.Body)
	}
	var p listPage
	if err := json.Unmarshal(r.Body, &p); err != nil {
		e.t.Fatal(err)
	}
	return p
}

func TestListPaginationAndFilters(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	wallet := crypto.PubkeyToAddress(key.PublicKey)
	var hashes []common.Hash
	for i, class := range []string{"limit", "stop_loss", "limit", "take_profit", "limit", "stop_loss", "limit"} {
		sp := defaultSpec(class, key)
		sp.price += uint64(i)
		hashes = append(hashes, e.submit(sp))
		e.clk.Advance(time.Second)
		if i == 3 {
			e.clk.Advance(10 * time.Second) // the maker's submit window
		}
	}
	e.submit(defaultSpec("limit", newKey(t))) // another wallet
	if r := e.cancel(hashes[0], key); r.Status != 200 {
		t.Fatal(r.Status)
	}
	// All of the wallet's orders, newest first, in pages of 3.
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		q := "limit=3&wallet=" + strings.ToLower(wallet.Hex())
		if cursor != "" {
			q += "&cursor=" + cursor
		}
		p := e.list(q)
		for _, o := range p.Orders {
			got = append(got, o.OrderHash)
		}
		if p.NextCursor == nil {
			if pages != 2 || len(p.Orders) != 1 {
				t.Fatalf("last page %d has %d orders", pages, len(p.Orders))
			}
			break
		}
		cursor = *p.NextCursor
	}
	if len(got) != 7 {
		t.Fatalf("got %d orders", len(got))
	}
	for i, h := range got {
		if want := hashes[6-i].Hex(); h != want {
			t.Fatalf("position %d: %s, want %s", i, h, want)
		}
	}
	p := e.list("wallet=" + wallet.Hex() + "&orderType=stop_loss")
	if len(p.Orders) != 2 || p.Orders[0].OrderHash != hashes[5].Hex() || p.NextCursor != nil {
		t.Fatalf("stop_loss filter: %+v", p)
	}
	p = e.list("status=cancelled")
	if len(p.Orders) != 1 || p.Orders[0].OrderHash != hashes[0].Hex() {
		t.Fatalf("cancelled filter: %+v", p)
	}
	p = e.list("status=pending&orderType=limit&wallet=" + wallet.Hex())
	if len(p.Orders) != 3 {
		t.Fatalf("pending limit filter: %d", len(p.Orders))
	}
	if len(e.list("limit=500").Orders) != 8 {
		t.Fatal("unfiltered list")
	}
	for _, q := range []string{"status=open", "orderType=market", "wallet=0x12", "cursor=zz", "limit=501"} {
		if r := e.srv.Get("/v1/orders?" + q); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
			t.Fatalf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	e.consistent()
}

type bookPage struct {
	Pair   string `json:"pair"`
	Orders []struct {
		OrderHash    string `json:"orderHash"`
		TriggerPrice string `json:"triggerPrice"`
	} `json:"orders"`
	NextCursor *string `json:"nextCursor"`
}

func (e *env) book(pair, query string) bookPage {
	e.t.Helper()
	r := e.srv.Get("/v1/orderbook/" + pair + "?" + query)
	if r.Status != 200 {
		e.t.Fatalf("orderbook: %d %s", r.Status, r.Body)
	}
	var p bookPage
	if err := json.Unmarshal(r.Body, &p); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// bookPrices pages through the whole book, two at a time.
func (e *env) bookPrices(pair string) []string {
	var out []string
	q := "limit=2"
	for {
		p := e.book(pair, q)
		for _, o := range p.Orders {
			out = append(out, o.TriggerPrice)
		}
		if p.NextCursor == nil {
			return out
		}
		q = "limit=2&cursor=" + *p.NextCursor
	}
}

func TestOrderbookOrderingPaginationAndRestart(t *testing.T) {
	e := newEnv(t)
	prices := []uint64{300, 100, 500, 200, 400}
	var hashes []common.Hash
	for _, p := range prices {
		sp := defaultSpec("limit", newKey(t))
		sp.price = p
		hashes = append(hashes, e.submit(sp))
	}
	// Another pair's order does not show.
	sp := defaultSpec("limit", newKey(t))
	sp.in, sp.out = tokB, tokA
	e.submit(sp)
	pair := tokA.Hex() + "-" + tokB.Hex()
	want := "100,200,300,400,500"
	if got := strings.Join(e.bookPrices(pair), ","); got != want {
		t.Fatalf("book %s, want %s", got, want)
	}
	if got := strings.Join(e.bookPrices(strings.ToLower(pair)), ","); got != want {
		t.Fatalf("lowercase pair: %s", got)
	}
	if p := e.book(strings.ToLower(pair), ""); p.Pair != pair {
		t.Fatalf("pair answered as %s", p.Pair)
	}
	if r := e.srv.Get("/v1/orderbook/0x12-0x34"); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
		t.Fatalf("bad pair: %d %s", r.Status, r.Body)
	}
	// A cancelled order leaves the book (the event is asynchronous: wait).
	key := newKey(t)
	sp = defaultSpec("limit", key)
	sp.price = 250
	hc := e.submit(sp)
	if r := e.cancel(hc, key); r.Status != 200 {
		t.Fatal(r.Status)
	}
	waitFor(t, func() bool { return strings.Join(e.bookPrices(pair), ",") == want })
	// Restart: the books are rebuilt from Pebble, and a stored hash is
	// still refused (the hash filter is reloaded from the store).
	sp = defaultSpec("take_profit", newKey(t))
	sp.in, sp.out = tokB, tokA // another pair's book
	dup, _ := e.build(sp)
	if r := e.submitRaw(dup); r.Status != 201 {
		t.Fatalf("submit: %d %s", r.Status, r.Body)
	}
	e.srv.Restart()
	if r := e.submitRaw(dup); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("duplicate after restart: %d %s", r.Status, r.Body)
	}
	if got := strings.Join(e.bookPrices(pair), ","); got != want {
		t.Fatalf("after restart %s, want %s", got, want)
	}
	if rec := e.get(hashes[0]); rec["status"] != "pending" {
		t.Fatalf("after restart %v", rec["status"])
	}
	e.consistent()
}

func TestPassivationAndReactivation(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key))
	reg := e.svc().Registry()
	// A new order is stored without an actor: it starts passivated.
	if reg.Live() != 0 {
		t.Fatalf("live actors after submit %d, want 0", reg.Live())
	}
	if err := reg.Warm(context.Background(), h); err != nil || reg.Live() != 1 {
		t.Fatalf("warm: %v, live %d", err, reg.Live())
	}
	stopped, err := reg.Passivate(context.Background(), h)
	if err != nil || !stopped || reg.Live() != 0 {
		t.Fatalf("passivate: %v %v live %d", stopped, err, reg.Live())
	}
	// A request reactivates the actor from Pebble, which cancels it.
	if r := e.cancel(h, key); r.Status != 200 {
		t.Fatalf("cancel after passivation: %d %s", r.Status, r.Body)
	}
	if reg.Live() != 1 {
		t.Fatalf("live after reactivation %d", reg.Live())
	}
	if rec := e.get(h); rec["status"] != "cancelled" {
		t.Fatalf("status %v", rec["status"])
	}
}

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
