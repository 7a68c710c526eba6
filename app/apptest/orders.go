package apptest

import (
	"context"

	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/orders"
)

// WithOrders plugs the order service (orders) behind the
// order routes, built from the server's configuration with opts (for
// example a dev chain client, or a token registry with oracle flags). The
// configuration needs chain.feeVault (and chain.router for the signing
// domain); see WithConfig. When out is not nil it receives the service at
// every start (also after Restart), for the lifecycle API and checks.
func WithOrders(opts orders.BuildOptions, out **orders.Service) Option {
	return WithBeforeStart(func(s *Server) error {
		svc, err := orders.Build(context.Background(), s.Engine, opts)
		if err != nil {
			return err
		}
		if out != nil {
			*out = svc
		}
		services := s.opts.services
		if services.Webhooks == nil && s.Webhooks != nil {
			services.Webhooks = apihttp.NewWebhookService(s.Webhooks)
		}
		services.Orders = svc
		s.HTTP.SetServices(services)
		return nil
	})
}
