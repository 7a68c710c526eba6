package webhook

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// ErrDeliveryID is a delivery whose body's id is not its X-Service-Delivery
// header.
var ErrDeliveryID = errors.New("webhook: the body's id is not the X-Service-Delivery header")

// Received is a delivery as a Go receiver reads it.
type Received struct {
	// ID is the delivery id (X-Service-Delivery), the same on every
	// attempt; Trigger and OrderHash come from the body (OrderHash zero
	// for an event without one, such as test.ping).
	ID        string
	Trigger   string
	OrderHash common.Hash
	// Err is nil when the signature verifies over the body with secret
	// within tolerance of now and the body carries the header's id.
	Err error
}

// Receive verifies a delivery (its headers and raw body) with the
// endpoint's secret and reads its envelope.
func Receive(h http.Header, body []byte, secret string, now time.Time, tolerance time.Duration) Received {
	var doc struct {
		ID      string `json:"id"`
		Trigger string `json:"trigger"`
		Data    struct {
			OrderHash string `json:"orderHash"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &doc)
	r := Received{ID: h.Get(HeaderDelivery), Trigger: doc.Trigger, OrderHash: common.HexToHash(doc.Data.OrderHash)}
	r.Err = Verify(h.Get(HeaderSignature), body, secret, now, tolerance)
	if r.Err == nil && doc.ID != r.ID {
		r.Err = ErrDeliveryID
	}
	return r
}
