package apptest

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app"
	apihttp "github.com/orderengine/orderengine/http"
)

// startWebhooks starts the webhook manager of eng (dev mode, so plain-http
// loopback receivers are allowed) and plugs it behind the webhook routes
// unless the test brought its own WebhookService.
func startWebhooks(eng *app.Engine, svc *apihttp.Services) (*webhook.Manager, []prometheus.Collector, error) {
	m, err := webhook.New(webhook.Options{
		Config: eng.Config.Webhooks, Dev: eng.Config.Dev, DataDir: eng.Config.DataDir,
		Store: eng.Store, Outbox: eng.Outbox, System: eng.System, Clock: eng.Clock, Log: eng.Log,
	})
	if err != nil {
		return nil, nil, err
	}
	if svc.Webhooks == nil {
		svc.Webhooks = apihttp.NewWebhookService(m)
	}
	return m, []prometheus.Collector{m.Collector()}, nil
}
