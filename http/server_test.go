package http_test

import (
	"encoding/json"
	nethttp "net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/routing"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/http/contracttest"
)

func keyHeader(k string) map[string]string { return map[string]string{"X-API-Key": k} }

// checkCode fails unless r has status and error code, the code is in the
// catalog with that status, and r carries an X-Request-ID.
func checkCode(t *testing.T, r *apptest.Response, status int, code orderengine.Code) {
	t.Helper()
	contracttest.CheckCode(t, r, status, code)
}

func TestKeylessEndpoints(t *testing.T) {
	ts := apptest.NewTestServer(t)
	for _, p := range []string{"/v1/errors", "/v1/config", "/v1/openapi.json"} {
		r := ts.Do("GET", p, nil, nil)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", p, r.Status, r.Body)
		}
		if r.Header.Get("X-RateLimit-Limit") != strconv.Itoa(ts.Config.Limits.Free.Read) {
			t.Fatalf("%s: keyless limit header %q", p, r.Header.Get("X-RateLimit-Limit"))
		}
	}
	var cat struct {
		Errors []orderengine.CodeInfo `json:"errors"`
	}
	if err := json.Unmarshal(ts.Do("GET", "/v1/errors", nil, nil).Body, &cat); err != nil || len(cat.Errors) != len(orderengine.Catalog()) {
		t.Fatalf("catalog: %v %d", err, len(cat.Errors))
	}
}

func TestConfigEndpoint(t *testing.T) {
	ts := apptest.NewTestServer(t)
	var cfg struct {
		ChainID uint64 `json:"chainId"`
		Router  *string
		Domain  struct {
			Name, Version     string
			ChainID           uint64 `json:"chainId"`
			VerifyingContract *string
		}
		EIP712 struct {
			Order, OrderCancel string
		}
		OrderTypes []string
		RateLimits struct {
			Tiers map[string]config.BucketLimits
		}
	}
	if err := json.Unmarshal(ts.Do("GET", "/v1/config", nil, nil).Body, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.ChainID != 4663 || cfg.Domain.Name != "ServiceRouter" || cfg.Domain.Version != "7" || cfg.Domain.ChainID != 4663 ||
		!strings.Contains(cfg.EIP712.Order, "uint256 triggerAmountOut,uint256 makerTraits") ||
		cfg.EIP712.OrderCancel != "OrderCancel(bytes32 orderHash)" || len(cfg.OrderTypes) != 5 ||
		cfg.RateLimits.Tiers["builder"].Quote != 600 || cfg.Router != nil {
		t.Fatalf("config: %+v", cfg)
	}
	chain := ts.Config.Chain
	chain.Router = "0x1111111111111111111111111111111111111111"
	chain.FeeVault = "0x2222222222222222222222222222222222222222"
	live := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.Chain.Router, c.Chain.FeeVault = chain.Router, chain.FeeVault }),
		apptest.WithTokens(func() *routing.Tokens { return nil }))
	if err := json.Unmarshal(live.Do("GET", "/v1/config", nil, nil).Body, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Router == nil || *cfg.Router != chain.Router || *cfg.Domain.VerifyingContract != chain.Router {
		t.Fatalf("live address not served: %+v", cfg)
	}
}

func TestAuthentication(t *testing.T) {
	ts := apptest.NewTestServer(t)
	checkCode(t, ts.Do("GET", "/v1/stats", nil, nil), 401, orderengine.CodeUnauthorized)
	checkCode(t, ts.Do("GET", "/v1/stats", nil, keyHeader("svc_wrong")), 401, orderengine.CodeUnauthorized)
	// Well-formed (valid checksum) but unknown.
	other := apptest.NewTestServer(t)
	checkCode(t, ts.Do("GET", "/v1/stats", nil, keyHeader(other.APIKey)), 401, orderengine.CodeUnauthorized)
	checkCode(t, ts.Do("GET", "/v1/stats", nil, map[string]string{"Authorization": "Basic " + ts.APIKey}), 401, orderengine.CodeUnauthorized)

	// Both header forms reach the service.
	for _, h := range []map[string]string{keyHeader(ts.APIKey), {"Authorization": "Bearer " + ts.APIKey}} {
		r := ts.Do("GET", "/v1/stats", nil, h)
		if r.Status != 200 {
			t.Fatalf("stats: %d %s", r.Status, r.Body)
		}
		if r.Header.Get("X-RateLimit-Limit") != "600" {
			t.Fatalf("limit header %q", r.Header.Get("X-RateLimit-Limit"))
		}
	}
	// Disabled key.
	if r := ts.Admin("POST", "/admin/v1/keys/"+ts.KeyID+"/disable", nil); r.Status != 200 {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	checkCode(t, ts.Do("GET", "/v1/stats", nil, keyHeader(ts.APIKey)), 401, orderengine.CodeKeyDisabled)
	checkCode(t, ts.Do("GET", "/v1/stats", nil, map[string]string{"Authorization": "bearer " + ts.APIKey}), 401, orderengine.CodeKeyDisabled)
}

func newRequest(url string) (*nethttp.Request, error) { return nethttp.NewRequest("GET", url, nil) }

func jsonHeader() nethttp.Header {
	return nethttp.Header{"Content-Type": []string{"application/json"}}
}
