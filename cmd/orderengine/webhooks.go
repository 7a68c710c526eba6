package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app"
	apihttp "github.com/orderengine/orderengine/http"
)

// startWebhooks starts the webhook manager (endpoint actors, outbox fan-out,
// outstanding deliveries resumed) and returns the server options that put
// it behind the webhook routes and on /metrics. Close the manager after
// the HTTP drain and before the engine.
func startWebhooks(eng *app.Engine) (*webhook.Manager, apihttp.Options, error) {
	m, err := webhook.New(webhook.Options{
		Config: eng.Config.Webhooks, Dev: eng.Config.Dev, DataDir: eng.Config.DataDir,
		Store: eng.Store, Outbox: eng.Outbox, System: eng.System, Clock: eng.Clock, Log: eng.Log,
	})
	if err != nil {
		return nil, apihttp.Options{}, err
	}
	return m, apihttp.Options{
		Services:   apihttp.Services{Webhooks: apihttp.NewWebhookService(m)},
		Collectors: []prometheus.Collector{m.Collector()},
	}, nil
}
