package orders_test

import (
	"context"
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/holiman/uint256"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/chainstore"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
)

// The read endpoints and the cancel, asserted through HTTP against the
// specification, contract.md and the served OpenAPI document (every
// response of e.srv.Do is also validated against that document).

// limitHeaders fails unless r carries the three rate-limit headers as
// integers (specification section 8: every response).
func limitHeaders(t *testing.T, what string, r *apptest.Response) {
	t.Helper()
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if _, err := strconv.Atoi(r.Header.Get(h)); err != nil {
			t.Errorf("%s: header %s = %q", what, h, r.Header.Get(h))
		}
	}
}

func TestReadEndpointsRefuseBadInput(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key)).Hex()
	wallet := crypto.PubkeyToAddress(key.PublicKey).Hex()
	unknown := "0x" + strings.Repeat("ab", 32)
	pair := tokA.Hex() + "-" + tokB.Hex()
	badSum := "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD" // one letter's case flipped
	listCursor := strings.Repeat("00", 40)
	bookCursor := strings.Repeat("00", 64)
	cases := []struct {
		path   string
		status int
		code   string
	}{
		// Order hash: 0x and 64 hex digits, either case.
		{"/v1/orders/" + h, 200, ""},
		{"/v1/orders/0x" + strings.ToUpper(h[2:]), 200, ""},
		{"/v1/orders/" + h[2:], 400, "INVALID_REQUEST"},
		{"/v1/orders/" + h[:64], 400, "INVALID_REQUEST"},
		{"/v1/orders/" + h + "00", 400, "INVALID_REQUEST"},
		{"/v1/orders/" + h[:65] + "g", 400, "INVALID_REQUEST"},
		{"/v1/orders/0x12", 400, "INVALID_REQUEST"},
		{"/v1/orders/" + unknown, 404, "NOT_FOUND"},
		{"/v1/orders/" + h + "/fills", 200, ""},
		{"/v1/orders/0x12/fills", 400, "INVALID_REQUEST"},
		{"/v1/orders/" + h[:65] + "g/fills", 400, "INVALID_REQUEST"},
		{"/v1/orders/" + unknown + "/fills", 404, "NOT_FOUND"},
		// List filters.
		{"/v1/orders?wallet=" + wallet, 200, ""},
		{"/v1/orders?wallet=" + strings.ToLower(wallet), 200, ""},
		{"/v1/orders?wallet=0x" + strings.ToUpper(wallet[2:]), 200, ""},
		{"/v1/orders?wallet=" + badSum, 400, "INVALID_REQUEST"},
		{"/v1/orders?wallet=" + wallet[2:], 400, "INVALID_REQUEST"},
		{"/v1/orders?wallet=0x12", 400, "INVALID_REQUEST"},
		{"/v1/orders?status=pending", 200, ""},
		{"/v1/orders?status=PENDING", 400, "INVALID_REQUEST"},
		{"/v1/orders?status=open", 400, "INVALID_REQUEST"},
		{"/v1/orders?orderType=stop_loss", 200, ""},
		{"/v1/orders?orderType=LIMIT", 400, "INVALID_REQUEST"},
		{"/v1/orders?orderType=market", 400, "INVALID_REQUEST"},
		{"/v1/orders?limit=1", 200, ""},
		{"/v1/orders?limit=500", 200, ""},
		{"/v1/orders?limit=0", 400, "INVALID_REQUEST"},
		{"/v1/orders?limit=-1", 400, "INVALID_REQUEST"},
		{"/v1/orders?limit=501", 400, "INVALID_REQUEST"},
		{"/v1/orders?limit=ten", 400, "INVALID_REQUEST"},
		{"/v1/orders?limit=1.5", 400, "INVALID_REQUEST"},
		{"/v1/orders?cursor=" + listCursor, 200, ""},
		{"/v1/orders?cursor=zz", 400, "INVALID_REQUEST"},
		{"/v1/orders?cursor=" + listCursor[:78], 400, "INVALID_REQUEST"},
		{"/v1/orders?cursor=" + bookCursor, 400, "INVALID_REQUEST"}, // an orderbook cursor
		// Orderbook pair: <tokenIn>-<tokenOut>, lowercase or checksummed.
		{"/v1/orderbook/" + pair, 200, ""},
		{"/v1/orderbook/" + strings.ToLower(pair), 200, ""},
		{"/v1/orderbook/" + tokA.Hex() + "-" + tokC.Hex(), 200, ""},
		{"/v1/orderbook/" + badSum + "-" + tokB.Hex(), 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + tokA.Hex() + "-" + tokA.Hex(), 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + strings.ToLower(tokA.Hex()) + "-" + tokA.Hex(), 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + tokA.Hex() + tokB.Hex(), 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + tokA.Hex() + "_" + tokB.Hex(), 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + pair + "-" + tokC.Hex(), 400, "INVALID_REQUEST"},
		{"/v1/orderbook/0x12-0x34", 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + pair + "?limit=0", 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + pair + "?limit=-3", 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + pair + "?limit=501", 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + pair + "?limit=x", 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + pair + "?cursor=" + bookCursor, 200, ""},
		{"/v1/orderbook/" + pair + "?cursor=zz", 400, "INVALID_REQUEST"},
		{"/v1/orderbook/" + pair + "?cursor=" + listCursor, 400, "INVALID_REQUEST"}, // a list cursor
	}
	for _, c := range cases {
		r := e.srv.Get(c.path)
		if r.Status != c.status || (c.code != "" && r.Code() != c.code) {
			t.Errorf("GET %s: %d %s, want %d %s", c.path, r.Status, r.Body, c.status, c.code)
		}
		limitHeaders(t, c.path, r)
	}
}

// Every keyed read and the cancel answer 401 UNAUTHORIZED without a valid
// key in either header form, with the rate-limit headers, and accept the
// key in both forms.
func TestReadEndpointsNeedAKey(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key)).Hex()
	pair := tokA.Hex() + "-" + tokB.Hex()
	reqs := []struct {
		method, path string
		body         []byte
	}{
		{"GET", "/v1/orders/" + h, nil}, {"GET", "/v1/orders/" + h + "/fills", nil}, {"GET", "/v1/orders", nil},
		{"GET", "/v1/orderbook/" + pair, nil}, {"DELETE", "/v1/orders/" + h, []byte(`{"signature":"0x00"}`)},
	}
	for _, rq := range reqs {
		for _, hd := range []map[string]string{nil, {"X-API-Key": "svc_wrong"}, {"Authorization": "Bearer svc_wrong"},
			{"Authorization": "Basic " + e.srv.APIKey}, {"X-API-Key": ""}} {
			r := e.srv.Do(rq.method, rq.path, rq.body, hd)
			if r.Status != 401 || r.Code() != "UNAUTHORIZED" {
				t.Errorf("%s %s with %v: %d %s", rq.method, rq.path, hd, r.Status, r.Body)
			}
			limitHeaders(t, rq.path, r)
		}
		for _, hd := range []map[string]string{{"X-API-Key": e.srv.APIKey}, {"Authorization": "Bearer " + e.srv.APIKey}} {
			r := e.srv.Do(rq.method, rq.path, rq.body, hd)
			if r.Status == 401 {
				t.Errorf("%s %s with %v: %d %s", rq.method, rq.path, hd, r.Status, r.Body)
			}
			limitHeaders(t, rq.path, r)
		}
	}
}

// The reads count in the read bucket, the cancel in the order bucket; a
// full bucket answers 429 RATE_LIMITED with Retry-After.
func TestReadEndpointsRateLimited(t *testing.T) {
	e := newEnv(t, apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 100, Read: 8, Order: 3}))
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key)).Hex() // one of the order bucket's 3
	pair := tokA.Hex() + "-" + tokB.Hex()
	reads := []string{"/v1/orders/" + h, "/v1/orders/" + h + "/fills", "/v1/orders", "/v1/orderbook/" + pair}
	for i := range 8 {
		r := e.srv.Get(reads[i%len(reads)])
		if r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "8" || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(7-i) {
			t.Fatalf("read %d: %d limit %s remaining %s", i, r.Status, r.Header.Get("X-RateLimit-Limit"), r.Header.Get("X-RateLimit-Remaining"))
		}
	}
	for _, p := range reads {
		r := e.srv.Get(p)
		if r.Status != 429 || r.Code() != "RATE_LIMITED" || r.Header.Get("X-RateLimit-Remaining") != "0" {
			t.Fatalf("%s over the limit: %d %s", p, r.Status, r.Body)
		}
		if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 {
			t.Fatalf("%s: Retry-After %q", p, r.Header.Get("Retry-After"))
		}
		limitHeaders(t, p, r)
	}
	// The cancel is in the order bucket (2 left), not the full read bucket.
	other := newKey(t)
	for i := range 2 {
		r := e.cancel(common.HexToHash(h), other)
		if r.Status != 400 || r.Header.Get("X-RateLimit-Limit") != "3" {
			t.Fatalf("cancel %d: %d %s limit %s", i, r.Status, r.Body, r.Header.Get("X-RateLimit-Limit"))
		}
	}
	r := e.cancel(common.HexToHash(h), key)
	if r.Status != 429 || r.Code() != "RATE_LIMITED" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("cancel over the order limit: %d %s", r.Status, r.Body)
	}
	e.clk.Advance(61 * time.Second)
	if r := e.cancel(common.HexToHash(h), key); r.Status != 200 {
		t.Fatalf("cancel after the window: %d %s", r.Status, r.Body)
	}
}

// TestOrderDetailCarriesEveryField checks GET /v1/orders/{hash} and
// /fills: the signed order, class, status, filled amounts, executions,
// dca and trailing parameters, trigger/stall/failure state, timestamps
// and the submitting account, through the lifecycle.
func TestOrderDetailCarriesEveryField(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	reg := e.svc().Registry()
	key := newKey(t)
	maker := crypto.PubkeyToAddress(key.PublicKey).Hex()
	created := e.clk.Now()
	body, h := e.build(defaultSpec("limit", key))
	if r := e.submitRaw(body); r.Status != 201 {
		t.Fatalf("submit: %d %s", r.Status, r.Body)
	}
	var sent struct {
		Order     map[string]any `json:"order"`
		Signature string         `json:"signature"`
	}
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	rec := e.get(h)
	fields := func(m map[string]any) string {
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return strings.Join(ks, ",")
	}
	if got := fields(rec); got != "accountId,createdAt,executions,filledAmountIn,filledAmountOut,order,orderHash,orderType,pair,signature,stalled,status,triggeredAt,updatedAt" {
		t.Fatalf("pending limit order fields: %s", got)
	}
	o := rec["order"].(map[string]any)
	if got := fields(o); got != "amountIn,maker,makerTraits,receiver,referralFeePpm,referrer,salt,tokenIn,tokenOut,triggerAmountOut,triggerPrice" {
		t.Fatalf("signed order fields: %s", got)
	}
	for _, f := range []string{"maker", "receiver", "tokenIn", "tokenOut", "referrer", "amountIn", "triggerPrice", "makerTraits"} {
		if o[f] != sent.Order[f] {
			t.Fatalf("order.%s = %v, submitted %v", f, o[f], sent.Order[f])
		}
	}
	if o["referralFeePpm"] != sent.Order["referralFeePpm"] || o["triggerAmountOut"] != "2000000000" || o["maker"] != maker {
		t.Fatalf("signed order %v", o)
	}
	if salt, _ := o["salt"].(string); len(salt) != 66 || new(big.Int).SetBytes(common.FromHex(salt)).Cmp(new(big.Int).SetBytes(common.FromHex(sent.Order["salt"].(string)))) != 0 {
		t.Fatalf("salt %v, submitted %v", o["salt"], sent.Order["salt"])
	}
	if rec["orderHash"] != h.Hex() || rec["orderType"] != "limit" || rec["status"] != "pending" || rec["signature"] != sent.Signature ||
		rec["filledAmountIn"] != "0" || rec["filledAmountOut"] != "0" || rec["executions"] != 0.0 || rec["triggeredAt"] != nil ||
		rec["stalled"] != false || rec["accountId"] != e.srv.AccountID || rec["pair"] != tokA.Hex()+"-"+tokB.Hex() {
		t.Fatalf("pending record %v", rec)
	}
	stamp := func(rec map[string]any, f string) time.Time {
		t.Helper()
		ts, err := time.Parse(time.RFC3339Nano, rec[f].(string))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		return ts
	}
	if !stamp(rec, "createdAt").Equal(created) || !stamp(rec, "updatedAt").Equal(created) {
		t.Fatalf("timestamps %v %v, want %v", rec["createdAt"], rec["updatedAt"], created)
	}
	// A partial fill: active, amounts, executions, the fill.
	e.clk.Advance(time.Minute)
	keeper := common.HexToAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
	fill := testFill(12, 3, "400000000000000000", "790000000", "400000000000000000", 1, e.clk.Now())
	fill.TxHash = hashOf("ab")
	fill.ProtocolFee, fill.ReferralFee, fill.KeeperFee = *uint256.NewInt(5000000), *uint256.NewInt(3000000), *uint256.NewInt(2000000)
	fill.Keeper = keeper
	if _, err := e.chainFillOf(h, fill); err != nil {
		t.Fatal(err)
	}
	rec = e.get(h)
	if rec["status"] != "active" || rec["filledAmountIn"] != "400000000000000000" || rec["filledAmountOut"] != "790000000" || rec["executions"] != 1.0 ||
		!stamp(rec, "updatedAt").Equal(e.clk.Now()) || !stamp(rec, "createdAt").Equal(created) {
		t.Fatalf("after a fill %v", rec)
	}
	r := e.srv.Get("/v1/orders/" + h.Hex() + "/fills")
	var fills struct {
		Fills []map[string]any `json:"fills"`
	}
	if err := json.Unmarshal(r.Body, &fills); err != nil || len(fills.Fills) != 1 {
		t.Fatalf("fills: %d %s", r.Status, r.Body)
	}
	f := fills.Fills[0]
	if got := fields(f); got != "amountIn,amountOut,blockNumber,keeper,keeperFee,logIndex,protocolFee,referralFee,timestamp,txHash" {
		t.Fatalf("fill fields %s", got)
	}
	if f["txHash"] != fill.TxHash.Hex() || f["blockNumber"] != 12.0 || f["logIndex"] != 3.0 || f["amountIn"] != fill.AmountIn.Dec() || f["amountOut"] != fill.AmountOut.Dec() ||
		f["protocolFee"] != "5000000" || f["referralFee"] != "3000000" || f["keeperFee"] != "2000000" || f["keeper"] != keeper.Hex() ||
		f["timestamp"] != float64(fill.Timestamp) {
		t.Fatalf("fill %v", f)
	}
	// dca: its parameters, and the stalled flag.
	dcaSpec := defaultSpec("dca", newKey(t))
	dcaSpec.traits.Flags |= chain.FlagShortCircuit
	dca := e.submit(dcaSpec)
	if _, err := reg.Stall(ctx, dca, true, chainstore.View{}, e.clk.Now()); err != nil {
		t.Fatal(err)
	}
	rec = e.get(dca)
	d, _ := rec["dca"].(map[string]any)
	if d["intervalSeconds"] != 3600.0 || d["totalExecutions"] != 4.0 || d["totalAmountIn"] != "1000000000000000000" || d["flexibilityPpm"] != 100000.0 ||
		d["shortCircuit"] != true || d["priceGated"] != false || rec["stalled"] != true || rec["orderType"] != "dca" || rec["trailing"] != nil {
		t.Fatalf("dca record %v", rec)
	}
	// trailing with a designated keeper.
	trSpec := defaultSpec("trailing", newKey(t))
	copy(trSpec.traits.AllowedSender[:], keeper[10:])
	trSpec.extra = map[string]any{"designatedKeeper": strings.ToLower(keeper.Hex())}
	tr := e.submit(trSpec)
	rec = e.get(tr)
	if tp, _ := rec["trailing"].(map[string]any); tp["trailPpm"] != 20000.0 || tp["designatedKeeper"] != keeper.Hex() || rec["dca"] != nil {
		t.Fatalf("trailing record %v", rec)
	}
	// stop_loss: triggered, then failed with a reason and revert name.
	stop := e.submit(defaultSpec("stop_loss", newKey(t)))
	e.clk.Advance(time.Second)
	if _, err := reg.Trigger(ctx, stop, uint256.NewInt(1499000000), chainstore.View{}, e.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Fail(ctx, stop, "slippage exceeded in simulation", "SlippageExceeded", e.clk.Now()); err != nil {
		t.Fatal(err)
	}
	rec = e.get(stop)
	if rec["status"] != "failed" || !stamp(rec, "triggeredAt").Equal(e.clk.Now()) || rec["reason"] != "slippage exceeded in simulation" || rec["revertName"] != "SlippageExceeded" {
		t.Fatalf("failed stop record %v", rec)
	}
	// The list shows the same records as the detail (without "funded").
	var list struct {
		Orders []map[string]any `json:"orders"`
	}
	if err := json.Unmarshal(e.srv.Get("/v1/orders?orderType=stop_loss").Body, &list); err != nil || len(list.Orders) != 1 {
		t.Fatalf("list: %v", err)
	}
	if fields(list.Orders[0]) != fields(rec) || list.Orders[0]["reason"] != rec["reason"] {
		t.Fatalf("listed %v, detail %v", list.Orders[0], rec)
	}
}

// Tenancy: an order's accountId is shown only to the account whose key
// submitted it; another account's key reads the order (GET and the list)
// without it.
func TestAccountIdShownOnlyToItsAccount(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key))
	acct, err := e.srv.System.Accounts.CreateAccount("another integrator", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := e.srv.System.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	read := func(path, apiKey string) map[string]any {
		t.Helper()
		r := e.srv.Do("GET", path, nil, map[string]string{"X-API-Key": apiKey})
		var body map[string]any
		if r.Status != 200 || json.Unmarshal(r.Body, &body) != nil {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
		}
		if orders, ok := body["orders"].([]any); ok {
			if len(orders) != 1 {
				t.Fatalf("GET %s: %d orders, want 1", path, len(orders))
			}
			return orders[0].(map[string]any)
		}
		return body
	}
	maker := crypto.PubkeyToAddress(key.PublicKey).Hex()
	for _, path := range []string{"/v1/orders/" + h.Hex(), "/v1/orders?wallet=" + maker} {
		if got := read(path, e.srv.APIKey)["accountId"]; got != e.srv.AccountID {
			t.Errorf("%s to the submitting account: accountId %v, want %s", path, got, e.srv.AccountID)
		}
		rec := read(path, other)
		if _, shown := rec["accountId"]; shown || rec["orderHash"] != h.Hex() {
			t.Errorf("%s to another account: %v", path, rec)
		}
	}
}
