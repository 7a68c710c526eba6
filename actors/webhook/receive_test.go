package webhook_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/webhook"
)

// Receive reads a signed delivery's envelope and refuses a changed body,
// another secret and a body whose id is not the header's.
func TestReceive(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	hash := common.HexToHash("0xab")
	body := []byte(`{"id":"dlv_1","trigger":"order.filled","data":{"orderHash":"` + hash.Hex() + `"}}`)
	headers := func(id string, body []byte) http.Header {
		h := http.Header{}
		h.Set(webhook.HeaderDelivery, id)
		h.Set(webhook.HeaderSignature, webhook.Sign("whsec_a", now, body))
		return h
	}
	d := webhook.Receive(headers("dlv_1", body), body, "whsec_a", now, webhook.DefaultTolerance)
	if d.Err != nil || d.ID != "dlv_1" || d.Trigger != "order.filled" || d.OrderHash != hash {
		t.Fatalf("a valid delivery: %+v", d)
	}
	changed := append([]byte{}, body...)
	changed[len(changed)-4] ^= 1
	if d := webhook.Receive(headers("dlv_1", body), changed, "whsec_a", now, webhook.DefaultTolerance); !errors.Is(d.Err, webhook.ErrSignatureMismatch) {
		t.Fatalf("a changed body: %v", d.Err)
	}
	if d := webhook.Receive(headers("dlv_1", body), body, "whsec_b", now, webhook.DefaultTolerance); !errors.Is(d.Err, webhook.ErrSignatureMismatch) {
		t.Fatalf("another secret: %v", d.Err)
	}
	if d := webhook.Receive(headers("dlv_2", body), body, "whsec_a", now, webhook.DefaultTolerance); !errors.Is(d.Err, webhook.ErrDeliveryID) {
		t.Fatalf("another delivery id: %v", d.Err)
	}
}
