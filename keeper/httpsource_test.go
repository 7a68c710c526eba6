package keeper_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/keeper"
)

// An API that refuses the list answers with its error object, which the
// keeper's source reports as an APIError; a 429's Retry-After becomes the
// keeper's wait before its next step (when longer than its poll), so a
// rate-limited keeper does not keep knocking every poll.
func TestHTTPSourceReportsTheAPIRefusalAndItsRetryAfter(t *testing.T) {
	srv := apptest.NewTestServer(t, apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 1, Read: 1, Order: 1}))
	src := keeper.HTTPSource(srv.URL, srv.APIKey, nil)
	var first, second *keeper.APIError
	_, _, err1 := src(context.Background(), common.Address{}, "")
	_, _, err2 := src(context.Background(), common.Address{}, "")
	if !errors.As(err1, &first) || first.Status != 501 || first.Code != "NOT_IMPLEMENTED" {
		t.Fatalf("first answer (no keeper service in this server): %v", err1)
	}
	if !errors.As(err2, &second) || second.Status != 429 || second.Code != "RATE_LIMITED" || second.RetryAfter < time.Second {
		t.Fatalf("second answer (read limit 1): %v", err2)
	}
	if got := keeper.RetryWait(err2, 10*time.Millisecond); got != second.RetryAfter {
		t.Fatalf("wait after a 429: %v, want its Retry-After %v", got, second.RetryAfter)
	}
	if got := keeper.RetryWait(err1, 10*time.Millisecond); got != 10*time.Millisecond {
		t.Fatalf("wait after a 501: %v, want the poll", got)
	}
}
