package orderengine

// WebhooksConfig configures webhook delivery. The webhooks issue fills it in.
type WebhooksConfig struct{}

func defaultWebhooks() WebhooksConfig { return WebhooksConfig{} }
