// Package webhookapi adapts the webhook Manager to the HTTP front end's
// WebhookService interface. It lives apart from package webhook so that the
// actor kind does not import the HTTP layer (which imports the Engine).
package webhookapi

import (
	"context"

	"github.com/orderengine/orderengine/actors/webhook"
	apihttp "github.com/orderengine/orderengine/http"
)

// Service implements http.WebhookService over a Manager. Every operation is
// scoped to the caller's account; another account's endpoint id answers
// 404 NOT_FOUND, like an unknown id.
type Service struct{ M *webhook.Manager }

var _ apihttp.WebhookService = Service{}

// Create registers an endpoint (201 with the secret, shown only here).
func (s Service) Create(ctx context.Context, c apihttp.Caller, req apihttp.CreateWebhookRequest) (any, error) {
	return s.M.Create(ctx, c.AccountID, req.URL, req.Events)
}

// List returns the caller's endpoints.
func (s Service) List(_ context.Context, c apihttp.Caller) (any, error) {
	return s.M.List(c.AccountID), nil
}

// Get returns one endpoint, with its enabled state and disabled reason.
func (s Service) Get(_ context.Context, c apihttp.Caller, id string) (any, error) {
	return s.M.Get(c.AccountID, id)
}

// Delete removes an endpoint and its deliveries.
func (s Service) Delete(_ context.Context, c apihttp.Caller, id string) (any, error) {
	if err := s.M.Delete(c.AccountID, id); err != nil {
		return nil, err
	}
	return struct {
		Success bool `json:"success"`
	}{true}, nil
}

// Test queues a test.ping delivery.
func (s Service) Test(_ context.Context, c apihttp.Caller, id string) (any, error) {
	return s.M.Test(c.AccountID, id)
}

// Deliveries returns the endpoint's recent deliveries and attempts.
func (s Service) Deliveries(_ context.Context, c apihttp.Caller, id string) (any, error) {
	return s.M.Deliveries(c.AccountID, id)
}
