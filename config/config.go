package config

// Config is the whole configuration of the engine. Every default lives in
// Default; flags, environment variables and an optional file override it
// (see LoadConfig). Each section is defined in its own config_*.go file.
type Config struct {
	// DataDir is the Pebble data folder. Default "./data".
	DataDir string `json:"dataDir"`
	// Dev enables development behaviour: plain-http loopback webhook targets,
	// and, when no RPC URL is set, the embedded dev chain with a development
	// API key printed on the first start of a data folder. Default true.
	Dev bool `json:"dev"`

	Log       LogConfig       `json:"log"`
	HTTP      HTTPConfig      `json:"http"`
	Limits    LimitsConfig    `json:"limits"`
	Chain     ChainConfig     `json:"chain"`
	Routing   RoutingConfig   `json:"routing"`
	Webhooks  WebhooksConfig  `json:"webhooks"`
	Lifecycle LifecycleConfig `json:"lifecycle"`
	Orders    OrdersConfig    `json:"orders"`
}

// Default returns the configuration of `make run`: the embedded dev chain,
// Pebble in ./data, the public API on 127.0.0.1:8080.
func Default() Config {
	return Config{
		DataDir:   "./data",
		Dev:       true,
		Log:       defaultLog(),
		HTTP:      defaultHTTP(),
		Limits:    defaultLimits(),
		Chain:     defaultChain(),
		Routing:   defaultRouting(),
		Webhooks:  defaultWebhooks(),
		Lifecycle: defaultLifecycle(),
		Orders:    defaultOrders(),
	}
}
