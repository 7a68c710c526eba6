package http

import (
	"context"
	"time"

	"github.com/orderengine/orderengine"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/api"
)

// webhookService adapts webhook.Manager to WebhookService: every operation
// is scoped to the caller's account; another account's endpoint id answers
// 404 NOT_FOUND, like an unknown id.
type webhookService struct {
	m *webhook.Manager
}

// NewWebhookService returns the WebhookService of Services.Webhooks backed
// by m (POST/GET /v1/webhooks and /v1/webhooks/{id}...).
func NewWebhookService(m *webhook.Manager) WebhookService { return webhookService{m: m} }

// Create registers an endpoint (201 with the secret, shown only here),
// idempotently under the request's Idempotency-Key.
func (s webhookService) Create(ctx context.Context, c api.Caller, req api.CreateWebhookRequest) (*webhook.CreatedView, error) {
	return s.m.CreateIdempotent(ctx, c.AccountID, req.URL, req.Events, req.IdempotencyKey)
}

// List returns the caller's endpoints.
func (s webhookService) List(_ context.Context, c api.Caller) (*webhook.ListView, error) {
	return s.m.List(c.AccountID)
}

// Get returns one endpoint, with its enabled state and disabled reason.
func (s webhookService) Get(_ context.Context, c api.Caller, id string) (*webhook.EndpointView, error) {
	return s.m.Get(c.AccountID, id)
}

// Delete removes an endpoint and its deliveries.
func (s webhookService) Delete(_ context.Context, c api.Caller, id string) (api.Success, error) {
	if err := s.m.Delete(c.AccountID, id); err != nil {
		return api.Success{}, err
	}
	return api.Success{Success: true}, nil
}

// Test queues a test.ping delivery.
func (s webhookService) Test(_ context.Context, c api.Caller, id string) (*webhook.TestResult, error) {
	return s.m.Test(c.AccountID, id)
}

// Deliveries returns the endpoint's recent deliveries and attempts.
func (s webhookService) Deliveries(_ context.Context, c api.Caller, id string) (*webhook.DeliveryListView, error) {
	return s.m.Deliveries(c.AccountID, id)
}

// Resend makes an attempt of a delivery now, under the same delivery id.
func (s webhookService) Resend(_ context.Context, c api.Caller, id, deliveryID string) (*webhook.DeliveryView, error) {
	return s.m.Resend(c.AccountID, id, deliveryID)
}

// RotateSecret gives the endpoint a new secret; the replaced one signs too
// for the overlap (webhook.DefaultSecretOverlap when the request gives
// none).
func (s webhookService) RotateSecret(_ context.Context, c api.Caller, id string, req api.RotateWebhookSecretRequest) (*webhook.CreatedView, error) {
	overlap := webhook.DefaultSecretOverlap
	if req.OverlapSeconds != nil {
		if n := *req.OverlapSeconds; n < 0 || n > int64(webhook.MaxSecretOverlap/time.Second) {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "overlapSeconds must be 0 to %d", int64(webhook.MaxSecretOverlap/time.Second))
		}
		overlap = time.Duration(*req.OverlapSeconds) * time.Second
	}
	return s.m.RotateSecret(c.AccountID, id, overlap)
}
