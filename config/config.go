package config

// Config is the whole configuration of the engine. Every default lives in
// Default; flags, environment variables and an optional file override it
// (see LoadConfig). Each section is defined in its own config_*.go file.
type Config struct {
	// DataDir is the Pebble data folder. Default "./data".
	DataDir string `json:"dataDir"`
	// Dev enables development behaviour. With no chain.rpcURL it runs the
	// embedded dev chain, prints a development API key on the first start
	// of a data folder, runs the dev keeper (lifecycle.devKeeper) and
	// allows loopback webhook targets, plain http included
	// (webhooks.allowLoopbackHTTP). With chain.rpcURL only the webhook
	// relaxation applies, and only when dev is set explicitly (file,
	// environment or flag), with a warning at start. Private, link-local
	// and other internal webhook targets are refused in every mode.
	// Default true without chain.rpcURL, false with it.
	Dev bool `json:"dev"`

	Log       LogConfig       `json:"log"`
	HTTP      HTTPConfig      `json:"http"`
	Limits    LimitsConfig    `json:"limits"`
	Chain     ChainConfig     `json:"chain"`
	Routing   RoutingConfig   `json:"routing"`
	Webhooks  WebhooksConfig  `json:"webhooks"`
	Lifecycle LifecycleConfig `json:"lifecycle"`
	Orders    OrdersConfig    `json:"orders"`
	Cluster   ClusterConfig   `json:"cluster"`
	Accounts  AccountsConfig  `json:"accounts"`
	Streams   StreamsConfig   `json:"streams"`
}

// Default returns the configuration of `make run`: the embedded dev chain,
// Pebble in ./data, the public API on 127.0.0.1:8080. LoadConfig turns dev
// mode off when it reads a chain.rpcURL and no explicit dev setting.
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
		Cluster:   defaultCluster(),
		Accounts:  defaultAccounts(),
		Streams:   defaultStreams(),
	}
}
