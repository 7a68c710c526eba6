package orderengine

// RoutingConfig configures route search, token classes and the fee policy.
// The routing issue fills it in.
type RoutingConfig struct{}

func defaultRouting() RoutingConfig { return RoutingConfig{} }
